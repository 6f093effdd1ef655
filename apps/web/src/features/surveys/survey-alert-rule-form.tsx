import {
  ALERT_CHANNEL_OPTIONS,
  alertRuleProblems,
  type SurveyAlertRule,
  surveyAlertRuleResource,
  usesScoreMax,
  usesScoreMin,
} from '@admin/shared/resources/survey-alert-rules';
import { Checkbox, Fieldset, Group, SimpleGrid, TagsInput, Text } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { RemoteMultiSelect } from '../../components/filters/remote-multi-select.tsx';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { compactPhone } from '../../lib/format.ts';
import { useSession } from '../../lib/session-store.ts';

const def = surveyAlertRuleResource;
const L = def.labels;
const NUMBERS = ['score_min', 'score_max', 'no_response_days', 'digest_hour', 'escalate_after_hours'] as const;
const ID_LISTS = ['survey_ids', 'recipient_user_ids'] as const;
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const numberOf = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : null);

/** The body as the API takes it: numbers and ids as numbers (empty = none), lists as chosen. */
function toBody(values: Partial<FormValues>): Record<string, unknown> {
  const body = bodyOf(values);
  for (const key of NUMBERS) {
    const v = body[key];
    if (typeof v === 'string') body[key] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  for (const key of ID_LISTS) {
    if (Array.isArray(body[key])) body[key] = list(body[key]).map(Number);
  }
  if (Array.isArray(body.extra_phones)) body.extra_phones = list(body.extra_phones).map((p) => String(compactPhone(p)));
  return body;
}

/** The cross-field rules (packages/shared survey-alert-rule-checks.ts) on the form's values. */
function check(values: Record<string, unknown>) {
  return alertRuleProblems({
    trigger: text(values.trigger),
    score_min: numberOf(values.score_min),
    score_max: numberOf(values.score_max),
    keywords: list(values.keywords),
    no_response_days: numberOf(values.no_response_days),
    recipient_user_ids: list(values.recipient_user_ids).map(Number),
    extra_emails: list(values.extra_emails),
    extra_phones: list(values.extra_phones),
    notify_assigned_personnel: values.notify_assigned_personnel === true,
    notify_location_manager: values.notify_location_manager === true,
    frequency: text(values.frequency),
    digest_hour: numberOf(values.digest_hour),
    escalate_after_hours: numberOf(values.escalate_after_hours),
    escalation_emails: list(values.escalation_emails),
  });
}

/** A list field typed as tags (keywords, extra e-mails and phones, escalation e-mails). */
function TagsField({ form, name, description }: { form: ReturnType<typeof useResourceForm>; name: string; description: string }) {
  return (
    <Controller
      control={form.form.control}
      name={name}
      render={({ field }) => (
        <TagsInput
          label={L[name]}
          description={description}
          placeholder={form.def.fields[name]?.placeholder}
          value={list(field.value)}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={form.error(name)}
        />
      )}
    />
  );
}

/**
 * Create or edit a survey alert rule (domain.md §7): what fires it, on which surveys and locations,
 * whom it reaches and how often. Score, keyword and day fields show only for the triggers that read
 * them; the digest hour only for a daily digest. Every rule runs before a save as the server runs it.
 */
export function SurveyAlertRuleForm(props: ResourceFormProps<SurveyAlertRule>) {
  const record = props.record;
  const zone = useSession((s) => s.currentClient?.timezone);
  const form = useResourceForm(def, props, { toBody, check });
  const { control } = form.form;
  const [trigger, frequency] = useWatch({ control, name: ['trigger', 'frequency'] });
  const named = (ids: readonly (number | string)[], names: readonly string[]) =>
    Object.fromEntries(ids.map((id, i) => [String(id), names[i] ?? String(id)]));
  const recipientLabels = Object.fromEntries(
    (record?.recipients ?? []).map((r) => [String(r.id), r.added_by === 'default' ? `${r.name} (joined by default)` : r.name]),
  );
  const multi = (
    name: 'survey_ids' | 'location_ids' | 'recipient_user_ids',
    path: string,
    labels: Record<string, string>,
    description: string,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <RemoteMultiSelect
          label={L[name] ?? name}
          description={description}
          path={path}
          value={list(field.value)}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={form.error(name)}
          labels={labels}
        />
      )}
    />
  );
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      {multi(
        'survey_ids',
        def.filters.survey.optionsPath,
        named(record?.survey_ids ?? [], record?.survey_names ?? []),
        'None chosen = Selected All',
      )}
      {multi(
        'location_ids',
        def.filters.location.optionsPath,
        named(record?.location_ids ?? [], record?.location_names ?? []),
        'None chosen = Selected All',
      )}
      <Field form={form} name="trigger" />
      {(usesScoreMin(text(trigger)) || usesScoreMax(text(trigger))) && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {usesScoreMin(text(trigger)) && <Field form={form} name="score_min" required />}
          <Field form={form} name="score_max" required />
        </SimpleGrid>
      )}
      {trigger === 'keyword' && <TagsField form={form} name="keywords" description="Up to 50 words or phrases; press Enter after each" />}
      {trigger === 'no_response_days' && (
        <Field form={form} name="no_response_days" required description="1 to 90 days after the invitation" />
      )}
      <Controller
        control={control}
        name="channels"
        render={({ field }) => (
          <Checkbox.Group
            label={L.channels}
            withAsterisk
            value={list(field.value)}
            onChange={field.onChange}
            error={form.error('channels')}
          >
            <Group mt={4}>
              {ALERT_CHANNEL_OPTIONS.map((o) => (
                <Checkbox key={o.value} value={o.value} label={o.label} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
      />
      <Fieldset legend="Recipients">
        {multi(
          'recipient_user_ids',
          def.filters.recipient.optionsPath,
          recipientLabels,
          'The client’s active users; Default for New User adds people added later',
        )}
        <TagsField form={form} name="extra_emails" description="Up to 10 addresses; press Enter after each" />
        <TagsField form={form} name="extra_phones" description="Up to 5 mobile numbers in international format" />
        <Field form={form} name="notify_assigned_personnel" />
        <Field form={form} name="notify_location_manager" />
      </Fieldset>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="frequency" />
        {frequency === 'daily_digest' && (
          <Field form={form} name="digest_hour" required description={`In the client’s time zone (${zone ?? 'its zone'})`} />
        )}
      </SimpleGrid>
      <Field form={form} name="escalate_after_hours" description="If nobody acknowledges the alert in time (1 to 168 hours)" />
      <TagsField form={form} name="escalation_emails" description="Required when escalation is set" />
      <Text size="xs" c="dimmed">
        At least one recipient: a user, an extra email or phone, assigned personnel or the location manager.
      </Text>
    </ResourceFormShell>
  );
}
