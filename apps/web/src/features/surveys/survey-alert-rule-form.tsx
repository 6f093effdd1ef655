import {
  alertRuleProblems,
  type SurveyAlertRule,
  surveyAlertRuleResource,
  usesScoreMax,
  usesScoreMin,
} from '@admin/shared/resources/survey-alert-rules';
import { SimpleGrid, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import {
  alertRuleBody,
  ChannelsField,
  list,
  namedOptions,
  numberOf,
  RecipientsFieldset,
  RemoteMultiField,
  TagsField,
  text,
} from '../../components/alert-rules/alert-rule-fields.tsx';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { useSession } from '../../lib/session-store.ts';

const def = surveyAlertRuleResource;

/** The body as the API takes it: numbers and ids as numbers (empty = none), lists as chosen. */
const toBody = (values: Partial<FormValues>) =>
  alertRuleBody(
    values,
    ['score_min', 'score_max', 'no_response_days', 'digest_hour', 'escalate_after_hours'],
    ['survey_ids', 'recipient_user_ids'],
  );

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
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <RemoteMultiField
        form={form}
        name="survey_ids"
        path={def.filters.survey.optionsPath}
        labels={namedOptions(record?.survey_ids ?? [], record?.survey_names ?? [])}
        description="None chosen = Selected All"
      />
      <RemoteMultiField
        form={form}
        name="location_ids"
        path={def.filters.location.optionsPath}
        labels={namedOptions(record?.location_ids ?? [], record?.location_names ?? [])}
        description="None chosen = Selected All"
      />
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
      <ChannelsField form={form} />
      <RecipientsFieldset form={form} optionsPath={def.filters.recipient.optionsPath} recipients={record?.recipients}>
        <Field form={form} name="notify_assigned_personnel" />
        <Field form={form} name="notify_location_manager" />
      </RecipientsFieldset>
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
