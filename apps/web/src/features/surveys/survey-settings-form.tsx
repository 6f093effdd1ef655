import {
  checkSurveySettings,
  SEND_DAY_OPTIONS,
  SURVEY_SETTINGS_SURVEY_OPTIONS_PATH,
  type SurveySettings,
  surveySettingsResource,
} from '@admin/shared/resources/survey-settings';
import { Alert, Checkbox, Group, Input } from '@mantine/core';
import type { BaseSyntheticEvent } from 'react';
import { Controller, useController } from 'react-hook-form';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import {
  bodyOf,
  type FormValues,
  type ResourceForm,
  type ResourceFormProps,
  useResourceForm,
} from '../../components/resource/use-resource-form.ts';

const def = surveySettingsResource;
const NUMBERS = ['daily_cap_per_location', 'over_survey_days', 'default_survey_id'];

/** Whole numbers go as numbers (the rules have checked them; an empty default survey is none); the rest as the kit sends text. */
function toBody(values: Partial<FormValues>): Record<string, unknown> {
  const body = bodyOf(values);
  for (const name of NUMBERS) {
    const value = body[name];
    if (typeof value === 'string') body[name] = value === '' ? null : Number(value);
  }
  return body;
}

/** The Default survey: one of the client's surveys that is not archived, searched on the server. */
function DefaultSurveySelect({ form, settings }: { form: ResourceForm; settings: SurveySettings }) {
  const { field } = useController({ control: form.form.control, name: 'default_survey_id' });
  const value = typeof field.value === 'string' && field.value !== '' ? field.value : null;
  // The saved default is named at once, before the server's first answer.
  const saved =
    settings.default_survey_id !== null && settings.default_survey_name !== null
      ? { [String(settings.default_survey_id)]: settings.default_survey_name }
      : undefined;
  return (
    <RemoteSelect
      label={def.fields.default_survey_id.label}
      description="One of this client's surveys that is not archived; blank for none"
      path={SURVEY_SETTINGS_SURVEY_OPTIONS_PATH(settings.id)}
      value={value}
      onChange={(v) => field.onChange(v ?? '')}
      onBlur={field.onBlur}
      clearable
      nothingFound="No surveys of this client match"
      error={form.error('default_survey_id')}
      labels={saved}
    />
  );
}

/**
 * Edit settings: the fields in groups (sender, schedule, branding, SMS, footer). The rules of
 * several fields (`checkSurveySettings`) run at save as the server runs them, the message on the
 * field. The Default survey is one of the client's surveys, searched on the server.
 */
export function SurveySettingsForm(props: ResourceFormProps<SurveySettings>) {
  const form = useResourceForm(def, props, { toBody });
  const submit = (event?: BaseSyntheticEvent) => {
    const problems = Object.entries(checkSurveySettings(form.form.getValues()));
    if (problems.length > 0) {
      event?.preventDefault();
      for (const [name, [message]] of problems) form.form.setError(name, { type: 'rule', message }, { shouldFocus: true });
      return Promise.resolve();
    }
    return form.submit(event);
  };
  const record = props.record;
  return (
    <ResourceFormShell form={{ ...form, submit }}>
      {record && !record.customized && (
        <Alert color="blue" variant="light" role="note">
          {record.client_name} uses the platform defaults. Saving keeps its own settings from now on.
        </Alert>
      )}
      <FieldRow form={form} names={['from_name', 'from_email']} />
      <FieldRow form={form} names={['reply_to', 'sending_domain']} />
      <FieldRow form={form} names={['quiet_hours_start', 'quiet_hours_end']} cols={{ base: 2 }} />
      <Controller
        control={form.form.control}
        name="send_days"
        render={({ field }) => (
          <Input.Wrapper label={def.fields.send_days.label} error={form.error('send_days')}>
            <Checkbox.Group value={Array.isArray(field.value) ? field.value : []} onChange={field.onChange}>
              <Group gap="sm" mt={4}>
                {SEND_DAY_OPTIONS.map((o) => (
                  <Checkbox key={o.value} value={o.value} label={o.label} />
                ))}
              </Group>
            </Checkbox.Group>
          </Input.Wrapper>
        )}
      />
      <FieldRow form={form} names={['daily_cap_per_location', 'over_survey_days']} cols={{ base: 2 }} />
      <FieldRow form={form} names={['logo_url', 'brand_color']} />
      <Field form={form} name="sms_sender" description="E.164 (+15555550142) or a 5- or 6-digit short code" />
      <Field form={form} name="sms_enabled" />
      <Field form={form} name="tcpa_consent_source" description="Where recipients agreed to receive texts; needed when SMS is enabled" />
      <Field form={form} name="unsubscribe_footer" />
      {record && <DefaultSurveySelect form={form} settings={record} />}
    </ResourceFormShell>
  );
}
