import {
  RECOMMEND_FILTER_OPTIONS,
  REVIEW_SITE_OPTIONS,
  type ReviewAlertRule,
  reviewAlertRuleProblems,
  reviewAlertRuleResource,
} from '@admin/shared/resources/review-alert-rules';
import { ALERT_CHANNEL_OPTIONS } from '@admin/shared/resources/survey-alert-rules';
import { Checkbox, Fieldset, Group, SimpleGrid, TagsInput, Text } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { RemoteMultiSelect } from '../../components/filters/remote-multi-select.tsx';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { compactPhone } from '../../lib/format.ts';
import { useSession } from '../../lib/session-store.ts';

const def = reviewAlertRuleResource;
const L = def.labels;
const NUMBERS = ['rating_min', 'rating_max'] as const;
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const numberOf = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : null);

/** The body as the API takes it: ratings and user ids as numbers (empty = none), phones compacted. */
function toBody(values: Partial<FormValues>): Record<string, unknown> {
  const body = bodyOf(values);
  for (const key of NUMBERS) {
    const v = body[key];
    if (typeof v === 'string') body[key] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  if (Array.isArray(body.recipient_user_ids)) body.recipient_user_ids = list(body.recipient_user_ids).map(Number);
  if (Array.isArray(body.extra_phones)) body.extra_phones = list(body.extra_phones).map((p) => String(compactPhone(p)));
  return body;
}

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

type Form = ReturnType<typeof useResourceForm>;

/** A list typed as tags (keywords, extra e-mails and phones). */
function TagsField({ form, name, description }: { form: Form; name: string; description: string }) {
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

/** A few options as checkboxes (sites, Facebook's choice, channels). */
function ChecksField({
  form,
  name,
  options,
  required = false,
}: {
  form: Form;
  name: string;
  options: readonly { value: string; label: string }[];
  required?: boolean;
}) {
  return (
    <Controller
      control={form.form.control}
      name={name}
      render={({ field }) => (
        <Checkbox.Group
          label={L[name]}
          withAsterisk={required}
          value={list(field.value)}
          onChange={field.onChange}
          error={form.error(name)}
        >
          <Group mt={4} gap="sm">
            {options.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
    />
  );
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
  const locationLabels = Object.fromEntries((record?.location_ids ?? []).map((id, i) => [id, record?.location_names[i] ?? id]));
  const recipientLabels = Object.fromEntries(
    (record?.recipients ?? []).map((r) => [String(r.id), r.added_by === 'default' ? `${r.name} (joined by default)` : r.name]),
  );
  const multi = (name: 'location_ids' | 'recipient_user_ids', path: string, labels: Record<string, string>, description: string) => (
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
  const digest = frequency === 'daily' || frequency === 'weekly';
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      {multi('location_ids', def.filters.location.optionsPath, locationLabels, 'None chosen = Selected All')}
      <ChecksField form={form} name="sites" options={REVIEW_SITE_OPTIONS} required />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="rating_min" description="1 to 5 stars; empty = any" />
        <Field form={form} name="rating_max" description="1 to 5 stars; empty = any" />
      </SimpleGrid>
      {list(sites).includes('facebook') && <ChecksField form={form} name="recommend_filter" options={RECOMMEND_FILTER_OPTIONS} />}
      <Field form={form} name="text_filter" />
      <TagsField form={form} name="keywords" description="Any of these words, whole and in any case; press Enter after each" />
      <ChecksField form={form} name="channels" options={ALERT_CHANNEL_OPTIONS} required />
      <Fieldset legend="Recipients">
        {multi(
          'recipient_user_ids',
          def.filters.recipient.optionsPath,
          recipientLabels,
          'The client’s active users; Default for New User adds people added later',
        )}
        <TagsField form={form} name="extra_emails" description="Up to 10 addresses; press Enter after each" />
        <TagsField form={form} name="extra_phones" description="Up to 5 mobile numbers in international format" />
      </Fieldset>
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
