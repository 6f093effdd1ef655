import {
  RECOMMEND_FILTER_OPTIONS,
  REVIEW_SITE_OPTIONS,
  type ReviewAlertRule,
  reviewAlertRuleProblems,
  reviewAlertRuleResource,
} from '@admin/shared/resources/review-alert-rules';
import { SimpleGrid, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import {
  alertRuleBody,
  ChannelsField,
  ChecksField,
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

const def = reviewAlertRuleResource;

/** The body as the API takes it: ratings and user ids as numbers (empty = none), phones compacted. */
const toBody = (values: Partial<FormValues>) => alertRuleBody(values, ['rating_min', 'rating_max'], ['recipient_user_ids']);

/** The cross-field rules (packages/shared review-alert-rule-checks.ts) on the form's values. */
function check(values: Record<string, unknown>) {
  return reviewAlertRuleProblems({
    rating_min: numberOf(values.rating_min),
    rating_max: numberOf(values.rating_max),
    keywords: list(values.keywords),
    recipient_user_ids: list(values.recipient_user_ids).map(Number),
    extra_emails: list(values.extra_emails),
    extra_phones: list(values.extra_phones),
    frequency: text(values.frequency),
    send_time: text(values.send_time),
    weekly_day: text(values.weekly_day),
  });
}

/**
 * Create or edit a review alert rule (domain.md §11): which reviews (locations, sites, ratings,
 * Facebook's recommendation, text, keywords), whom it reaches and how often. Facebook's choice
 * shows only when Facebook is a site; the send time only for a digest, the weekday only for a
 * weekly one. Every rule runs before a save as the server runs it.
 */
export function ReviewAlertRuleForm(props: ResourceFormProps<ReviewAlertRule>) {
  const record = props.record;
  const zone = useSession((s) => s.currentClient?.timezone);
  const form = useResourceForm(def, props, { toBody, check });
  const { control } = form.form;
  const [sites, frequency] = useWatch({ control, name: ['sites', 'frequency'] });
  const digest = frequency === 'daily' || frequency === 'weekly';
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <RemoteMultiField
        form={form}
        name="location_ids"
        path={def.filters.location.optionsPath}
        labels={namedOptions(record?.location_ids ?? [], record?.location_names ?? [])}
        description="None chosen = Selected All"
      />
      <ChecksField form={form} name="sites" options={REVIEW_SITE_OPTIONS} required />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="rating_min" description="1 to 5 stars; empty = any" />
        <Field form={form} name="rating_max" description="1 to 5 stars; empty = any" />
      </SimpleGrid>
      {list(sites).includes('facebook') && <ChecksField form={form} name="recommend_filter" options={RECOMMEND_FILTER_OPTIONS} />}
      <Field form={form} name="text_filter" />
      <TagsField form={form} name="keywords" description="Any of these words, whole and in any case; press Enter after each" />
      <ChannelsField form={form} />
      <RecipientsFieldset form={form} optionsPath={def.filters.recipient.optionsPath} recipients={record?.recipients} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field form={form} name="frequency" />
        {digest && <Field form={form} name="send_time" required description={`HH:mm in the client’s time zone (${zone ?? 'its zone'})`} />}
        {frequency === 'weekly' && <Field form={form} name="weekly_day" required />}
      </SimpleGrid>
      <Field form={form} name="include_reply_link" />
      <Text size="xs" c="dimmed">
        At least one recipient: a user, an extra email or an extra phone.
      </Text>
    </ResourceFormShell>
  );
}
