import {
  alertRuleProblems,
  type SurveyAlertRule,
  surveyAlertRuleResource,
  usesScoreMax,
  usesScoreMin,
} from '@admin/shared/resources/survey-alert-rules';
import { SimpleGrid, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import * as Rule from '../../components/alert-rules/alert-rule-fields.tsx';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import type { ResourceFormProps } from '../../components/resource/use-resource-form.ts';

const def = surveyAlertRuleResource;

/** The cross-field rules (packages/shared survey-alert-rule-checks.ts) on the form's values. */
function check(values: Record<string, unknown>) {
  return alertRuleProblems({
    ...Rule.commonRuleValues(values),
    trigger: Rule.text(values.trigger),
    score_min: Rule.numberOf(values.score_min),
    score_max: Rule.numberOf(values.score_max),
    no_response_days: Rule.numberOf(values.no_response_days),
    notify_assigned_personnel: values.notify_assigned_personnel === true,
    notify_location_manager: values.notify_location_manager === true,
    digest_hour: Rule.numberOf(values.digest_hour),
    escalate_after_hours: Rule.numberOf(values.escalate_after_hours),
    escalation_emails: Rule.list(values.escalation_emails),
  });
}

/** The numbers and id lists sent as numbers (empty = none). */
const shape = {
  numbers: ['score_min', 'score_max', 'no_response_days', 'digest_hour', 'escalate_after_hours'],
  idLists: ['survey_ids', 'recipient_user_ids'],
  check,
};

/**
 * Create or edit a survey alert rule (domain.md §7): what fires it, on which surveys and locations,
 * whom it reaches and how often. Score, keyword and day fields show only for the triggers that read
 * them; the digest hour only for a daily digest. Every rule runs before a save as the server runs it.
 */
export function SurveyAlertRuleForm(props: ResourceFormProps<SurveyAlertRule>) {
  const record = props.record;
  const { form, zone } = Rule.useAlertRuleForm(def, props, shape);
  const [trigger, frequency] = useWatch({ control: form.form.control, name: ['trigger', 'frequency'] });
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <Rule.AllOrSomeField
        form={form}
        name="survey_ids"
        path={def.filters.survey.optionsPath}
        ids={record?.survey_ids}
        names={record?.survey_names}
      />
      <Rule.LocationsField form={form} path={def.filters.location.optionsPath} record={record} />
      <Field form={form} name="trigger" />
      {(usesScoreMin(Rule.text(trigger)) || usesScoreMax(Rule.text(trigger))) && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {usesScoreMin(Rule.text(trigger)) && <Field form={form} name="score_min" required />}
          <Field form={form} name="score_max" required />
        </SimpleGrid>
      )}
      {trigger === 'keyword' && (
        <Rule.TagsField form={form} name="keywords" description="Up to 50 words or phrases; press Enter after each" />
      )}
      {trigger === 'no_response_days' && (
        <Field form={form} name="no_response_days" required description="1 to 90 days after the invitation" />
      )}
      <Rule.ChannelsField form={form} />
      <Rule.RecipientsFieldset form={form} optionsPath={def.filters.recipient.optionsPath} recipients={record?.recipients}>
        <Field form={form} name="notify_assigned_personnel" />
        <Field form={form} name="notify_location_manager" />
      </Rule.RecipientsFieldset>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="frequency" />
        {frequency === 'daily_digest' && (
          <Field form={form} name="digest_hour" required description={`In the client’s time zone (${zone})`} />
        )}
      </SimpleGrid>
      <Field form={form} name="escalate_after_hours" description="If nobody acknowledges the alert in time (1 to 168 hours)" />
      <Rule.TagsField form={form} name="escalation_emails" description="Required when escalation is set" />
      <Text size="xs" c="dimmed">
        At least one recipient: a user, an extra email or phone, assigned personnel or the location manager.
      </Text>
    </ResourceFormShell>
  );
}
