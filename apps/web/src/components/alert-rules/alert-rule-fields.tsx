import type { ResourceView } from '@admin/shared';
import { ALERT_CHANNEL_OPTIONS, type AlertRecipient } from '@admin/shared/resources/survey-alert-rules';
import { Checkbox, Fieldset, Group, TagsInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { compactPhone } from '../../lib/format.ts';
import { useSession } from '../../lib/session-store.ts';
import { RemoteMultiSelect } from '../filters/remote-multi-select.tsx';
import { bodyOf, type Editable, type FormValues, type ResourceFormProps, useResourceForm } from '../resource/use-resource-form.ts';

/**
 * The parts every alert rule form has (Survey and Review Alert Settings): lists typed as tags,
 * options as checkboxes, remote multi-selects, the channels and the Recipients fieldset, and the
 * body as the API takes it. Each form composes them with its own conditions
 * (docs/decisions/054-one-alert-rule-kit.md).
 */
export type AlertRuleForm = ReturnType<typeof useResourceForm>;

export const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
export const text = (value: unknown) => (typeof value === 'string' ? value : '');
export const numberOf = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : null);

/** The body as the API takes it: the named numbers and id lists as numbers (empty = none), phones compacted. */
export function alertRuleBody(
  values: Partial<FormValues>,
  numbers: readonly string[],
  idLists: readonly string[],
): Record<string, unknown> {
  const body = bodyOf(values);
  for (const key of numbers) {
    const v = body[key];
    if (typeof v === 'string') body[key] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  for (const key of idLists) {
    if (Array.isArray(body[key])) body[key] = list(body[key]).map(Number);
  }
  if (Array.isArray(body.extra_phones)) body.extra_phones = list(body.extra_phones).map((p) => String(compactPhone(p)));
  return body;
}

/** What every rule's cross-field rules read of the form (the kind adds its own): keywords, recipients, frequency. */
export const commonRuleValues = (values: Record<string, unknown>) => ({
  keywords: list(values.keywords),
  recipient_user_ids: list(values.recipient_user_ids).map(Number),
  extra_emails: list(values.extra_emails),
  extra_phones: list(values.extra_phones),
  frequency: text(values.frequency),
});

/**
 * The kit's form for a kind of rule: its numbers and id lists sent as numbers, its cross-field
 * rules run before a save (as the server runs them), and the client's time zone for its send time.
 */
export function useAlertRuleForm<Row extends Editable>(
  def: ResourceView<Row>,
  props: ResourceFormProps<Row>,
  kind: { numbers: readonly string[]; idLists: readonly string[]; check: (values: Record<string, unknown>) => Record<string, string[]> },
) {
  const zone = useSession((s) => s.currentClient?.timezone);
  const form = useResourceForm(def, props, {
    toBody: (values) => alertRuleBody(values, kind.numbers, kind.idLists),
    check: kind.check,
  });
  return { form, zone: zone ?? 'its zone' };
}

/** A record's ids with the names it was answered with, for a remote select to show before it loads. */
export const namedOptions = (ids: readonly (number | string)[], names: readonly string[]) =>
  Object.fromEntries(ids.map((id, i) => [String(id), names[i] ?? String(id)]));

/** Recipient users as the select shows them, one who joined by default marked so. */
export const recipientLabels = (recipients: readonly AlertRecipient[] = []) =>
  Object.fromEntries(recipients.map((r) => [String(r.id), r.added_by === 'default' ? `${r.name} (joined by default)` : r.name]));

/** A list typed as tags (keywords, extra e-mails and phones, escalation e-mails). */
export function TagsField({ form, name, description }: { form: AlertRuleForm; name: string; description: string }) {
  return (
    <Controller
      control={form.form.control}
      name={name}
      render={({ field }) => (
        <TagsInput
          label={form.def.labels[name]}
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

/** A few options as checkboxes (channels, sites, Facebook's choice). */
export function ChecksField({
  form,
  name,
  options,
  required = false,
}: {
  form: AlertRuleForm;
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
          label={form.def.labels[name]}
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

/** Ids chosen from the server's paged options (surveys, locations, users); `labels` names those already chosen. */
export function RemoteMultiField(props: {
  form: AlertRuleForm;
  name: string;
  path: string;
  labels: Record<string, string>;
  description: string;
}) {
  const { form, name } = props;
  return (
    <Controller
      control={form.form.control}
      name={name}
      render={({ field }) => (
        <RemoteMultiSelect
          label={form.def.labels[name] ?? name}
          description={props.description}
          path={props.path}
          value={list(field.value)}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={form.error(name)}
          labels={props.labels}
        />
      )}
    />
  );
}

/** Surveys or locations a rule is for, none chosen meaning all; the record's names show those chosen before the options load. */
export function AllOrSomeField(props: {
  form: AlertRuleForm;
  name: string;
  path: string;
  ids: readonly (number | string)[] | undefined;
  names: readonly string[] | undefined;
}) {
  const { form, name, path } = props;
  const labels = namedOptions(props.ids ?? [], props.names ?? []);
  return <RemoteMultiField form={form} name={name} path={path} labels={labels} description="None chosen = Selected All" />;
}

/** The Locations field every rule has (none chosen = every location). */
export const LocationsField = (props: {
  form: AlertRuleForm;
  path: string;
  record: { location_ids: string[]; location_names: string[] } | null | undefined;
}) => (
  <AllOrSomeField
    form={props.form}
    name="location_ids"
    path={props.path}
    ids={props.record?.location_ids}
    names={props.record?.location_names}
  />
);

export const ChannelsField = ({ form }: { form: AlertRuleForm }) => (
  <ChecksField form={form} name="channels" options={ALERT_CHANNEL_OPTIONS} required />
);

/** The Recipients fieldset: users (Default for New User among them), extra e-mails and phones, then the kind's own. */
export function RecipientsFieldset(props: {
  form: AlertRuleForm;
  optionsPath: string;
  recipients: readonly AlertRecipient[] | undefined;
  children?: ReactNode;
}) {
  const { form } = props;
  return (
    <Fieldset legend="Recipients">
      <RemoteMultiField
        form={form}
        name="recipient_user_ids"
        path={props.optionsPath}
        labels={recipientLabels(props.recipients)}
        description="The client’s active users; Default for New User adds people added later"
      />
      <TagsField form={form} name="extra_emails" description="Up to 10 addresses; press Enter after each" />
      <TagsField form={form} name="extra_phones" description="Up to 5 mobile numbers in international format" />
      {props.children}
    </Fieldset>
  );
}
