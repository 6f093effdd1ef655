import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_MAX_GRACE_HOURS,
  API_TOKEN_REGENERATE_LABELS,
  API_TOKEN_SCOPE_OPTIONS,
  type ApiTokenCreated,
  type ApiTokenUser,
  apiTokenResource,
  NEVER,
} from '@admin/shared/resources/api-tokens';
import { Checkbox, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useChanged } from '../../components/discard-guard.tsx';
import { api } from '../../lib/http.ts';
import { AllowedIpsInput, DialogForm, ipList, useDialogSave } from './dialog-kit.tsx';

export type TokenDialog = { kind: 'generate' | 'edit' | 'regenerate' | 'revoke'; row: ApiTokenUser };
const labels = apiTokenResource.labels;
const path = apiTokenResource.path;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const todayIso = () => new Date().toISOString().slice(0, 10);

/** An expiry as the forms hold it: a `yyyy-MM-dd` box, or never (the box then disabled). */
type Expiry = { date: string; never: boolean };
const expiryBody = (e: Expiry) => (e.never ? NEVER : e.date.trim());

/** Expires (`yyyy-MM-dd`, after today) with its "Never expires" box: Generate's, Edit's and Regenerate's. */
function ExpiryInput(props: {
  value: Expiry;
  onChange(value: Expiry): void;
  error: string | undefined;
  description: string;
  required?: boolean;
}) {
  const { value, onChange } = props;
  return (
    <>
      <TextInput
        label={labels.expires_at}
        required={props.required}
        description={props.description}
        placeholder="yyyy-MM-dd"
        value={value.never ? '' : value.date}
        disabled={value.never}
        onChange={(e) => onChange({ ...value, date: e.currentTarget.value })}
        error={props.error}
      />
      <Checkbox
        label="Never expires (discouraged)"
        checked={value.never}
        onChange={(e) => onChange({ ...value, never: e.currentTarget.checked })}
      />
    </>
  );
}

/**
 * Generate or edit a user's token: name, scopes, expiry (90 days by default, or never) and the
 * addresses it may be used from. A generate answers the plaintext, which the page shows once.
 */
export function TokenForm({
  dialog,
  onDone,
  onCancel,
}: {
  dialog: TokenDialog;
  onDone(created: ApiTokenCreated | null): void;
  onCancel(): void;
}) {
  const { row } = dialog;
  const editing = dialog.kind === 'edit';
  const [name, setName] = useState(editing ? (row.token_name ?? '') : '');
  const [scopes, setScopes] = useState<string[]>(editing ? row.scopes : ['feeds:write']);
  const [expiry, setExpiry] = useState<Expiry>({
    date: editing && row.expires_at ? row.expires_at.slice(0, 10) : inDays(API_TOKEN_DEFAULT_DAYS),
    never: editing && row.expires_at === null,
  });
  const [ips, setIps] = useState(editing ? row.allowed_ips.join('\n') : '');
  const save = useDialogSave();
  const dirty = useChanged({ name, scopes, expiry, ips });

  const submit = () =>
    save.run(async () => {
      const body = { name, scopes, expires_at: expiryBody(expiry), allowed_ips: ipList(ips) };
      if (editing) {
        await api.patch(`${path}/${row.token_id}`, { ...body, updated_at: row.updated_at });
        onDone(null);
      } else {
        const { data } = await api.post<{ data: ApiTokenCreated }>(path, { ...body, user_id: row.id });
        onDone(data);
      }
    });

  return (
    <DialogForm onSubmit={submit} onCancel={onCancel} save={save} dirty={dirty} submitLabel={editing ? 'Save' : 'Generate token'}>
      <Text size="sm">
        For <b>{row.name}</b> ({row.email})
      </Text>
      {/* No maxLength: a longer name (pasted, say) is refused beside the field, not cut without a word. */}
      <TextInput
        label={labels.name}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={save.error('name')}
        data-autofocus
      />
      <Checkbox.Group label={labels.scopes} withAsterisk value={scopes} onChange={setScopes} error={save.error('scopes')}>
        <Stack gap={4} mt={4}>
          {API_TOKEN_SCOPE_OPTIONS.map((o) => (
            <Checkbox key={o.value} value={o.value} label={o.label} />
          ))}
        </Stack>
      </Checkbox.Group>
      <ExpiryInput
        value={expiry}
        onChange={setExpiry}
        error={save.error('expires_at')}
        description="yyyy-MM-dd, after today; rotate tokens every 30–90 days"
      />
      <AllowedIpsInput label={apiTokenResource.fields.allowed_ips.label} value={ips} onChange={setIps} error={save.error('allowed_ips')} />
    </DialogForm>
  );
}

/**
 * Regenerate: a new token now; the old one keeps working for the grace period (0 = revoked at
 * once). The new token keeps the old one's expiry unless another is chosen here; when that has
 * passed, the dialog asks for one (the server refuses a regenerate without it).
 */
export function RegenerateForm({ row, onDone, onCancel }: { row: ApiTokenUser; onDone(created: ApiTokenCreated): void; onCancel(): void }) {
  const passed = row.expires_at !== null && row.expires_at.slice(0, 10) <= todayIso();
  const kept: Expiry = { date: row.expires_at && !passed ? row.expires_at.slice(0, 10) : '', never: row.expires_at === null };
  const [grace, setGrace] = useState<number | string>(0);
  const [expiry, setExpiry] = useState<Expiry>(kept);
  const save = useDialogSave();
  const dirty = useChanged({ grace, expiry });
  const submit = () =>
    save.run(async () => {
      const { data } = await api.post<{ data: ApiTokenCreated }>(`${path}/${row.token_id}/regenerate`, {
        grace_hours: grace === '' ? null : Number(grace),
        expires_at: expiryBody(expiry),
      });
      onDone(data);
    });
  return (
    <DialogForm onSubmit={submit} onCancel={onCancel} save={save} dirty={dirty} submitLabel="Regenerate">
      <Text size="sm">
        A new token replaces <b>{row.token_name}</b> of {row.name}. Endpoints linked to it take the new one.
      </Text>
      {/* clampBehavior none: an out-of-range number is refused beside the field, never changed without a word. */}
      <NumberInput
        label={API_TOKEN_REGENERATE_LABELS.grace_hours}
        description={`The old token keeps working this long (0–${API_TOKEN_MAX_GRACE_HOURS}); 0 revokes it at once`}
        min={0}
        max={API_TOKEN_MAX_GRACE_HOURS}
        clampBehavior="none"
        allowDecimal={false}
        value={grace}
        onChange={setGrace}
        error={save.error('grace_hours')}
      />
      <ExpiryInput
        value={expiry}
        onChange={setExpiry}
        required={passed}
        error={save.error('expires_at')}
        description={
          passed
            ? `The current token expired on ${row.expires_at?.slice(0, 10)}: choose the new token's expiry (yyyy-MM-dd, after today)`
            : 'Kept from the current token; change it to give the new token another'
        }
      />
    </DialogForm>
  );
}

export function RevokeConfirm({ row, onDone, onCancel }: { row: ApiTokenUser; onDone(message: string): void; onCancel(): void }) {
  const save = useDialogSave();
  const revoke = () =>
    save.run(async () => {
      await api.post(`${path}/${row.token_id}/revoke`);
      onDone(`Revoked ${row.token_name ?? 'the token'} of ${row.name}`);
    });
  return (
    <DialogForm onSubmit={revoke} onCancel={onCancel} save={save} dirty={false} submitLabel="Revoke token" submitColor="red">
      <Text size="sm">
        Calls with <b>{row.api_token}</b> are refused from now on. Endpoints bound to it refuse every call until they are given another
        token, and their webhook secrets are removed. This cannot be undone.
      </Text>
    </DialogForm>
  );
}
