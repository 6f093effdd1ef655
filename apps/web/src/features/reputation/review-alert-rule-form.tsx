import {
  RECOMMEND_FILTER_OPTIONS,
  REVIEW_SITE_OPTIONS,
  type ReviewAlertRule,
  reviewAlertRuleProblems,
  reviewAlertRuleResource,
} from '@admin/shared/resources/review-alert-rules';
import { SimpleGrid, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import * as Rule from '../../components/alert-rules/alert-rule-fields.tsx';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import type { ResourceFormProps } from '../../components/resource/use-resource-form.ts';

const def = reviewAlertRuleResource;

/** The cross-field rules (packages/shared review-alert-rule-checks.ts) on the form's values. */
function check(values: Record<string, unknown>) {
  return reviewAlertRuleProblems({
    ...Rule.commonRuleValues(values),
    rating_min: Rule.numberOf(values.rating_min),
    rating_max: Rule.numberOf(values.rating_max),
    send_time: Rule.text(values.send_time),
    weekly_day: Rule.text(values.weekly_day),
  });
}

/** Ratings and user ids sent as numbers (empty = none). */
const shape = { numbers: ['rating_min', 'rating_max'], idLists: ['recipient_user_ids'], check };

/**
 * Create or edit a review alert rule (domain.md §11): which reviews (locations, sites, ratings,
 * Facebook's recommendation, text, keywords), whom it reaches and how often. Facebook's choice
 * shows only when Facebook is a site; the send time only for a digest, the weekday only for a
 * weekly one. Every rule runs before a save as the server runs it.
 */
export function ReviewAlertRuleForm(props: ResourceFormProps<ReviewAlertRule>) {
  const record = props.record;
  const { form, zone } = Rule.useAlertRuleForm(def, props, shape);
  const [sites, frequency] = useWatch({ control: form.form.control, name: ['sites', 'frequency'] });
  const digest = frequency === 'daily' || frequency === 'weekly';
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <Rule.LocationsField form={form} path={def.filters.location.optionsPath} record={record} />
      <Rule.ChecksField form={form} name="sites" options={REVIEW_SITE_OPTIONS} required />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="rating_min" description="1 to 5 stars; empty = any" />
        <Field form={form} name="rating_max" description="1 to 5 stars; empty = any" />
      </SimpleGrid>
      {Rule.list(sites).includes('facebook') && <Rule.ChecksField form={form} name="recommend_filter" options={RECOMMEND_FILTER_OPTIONS} />}
      <Field form={form} name="text_filter" />
      <Rule.TagsField form={form} name="keywords" description="Any of these words, whole and in any case; press Enter after each" />
      <Rule.ChannelsField form={form} />
      <Rule.RecipientsFieldset form={form} optionsPath={def.filters.recipient.optionsPath} recipients={record?.recipients} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field form={form} name="frequency" />
        {digest && <Field form={form} name="send_time" required description={`HH:mm in the client’s time zone (${zone})`} />}
        {frequency === 'weekly' && <Field form={form} name="weekly_day" required />}
      </SimpleGrid>
      <Field form={form} name="include_reply_link" />
      <Text size="xs" c="dimmed">
        At least one recipient: a user, an extra email or an extra phone.
      </Text>
    </ResourceFormShell>
  );
}
