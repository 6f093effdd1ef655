import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_MAX_GRACE_HOURS,
  API_TOKEN_REGENERATE_LABELS,
  API_TOKEN_SCOPE_OPTIONS,
  type ApiTokenCreated,
  type ApiTokenUser,
  apiTokenResource,
  NEVER,
  TOKEN_HOLDER_RULE,
} from '@admin/shared/resources/api-tokens';
import { Badge, Button, Checkbox, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { GuardedModal, useChanged, useGuardedClose } from '../../components/discard-guard.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { api } from '../../lib/http.ts';
import { AllowedIpsInput, DialogForm, ipList, SecretOnceDialog, useDialogSave } from './dialog-kit.tsx';

type Dialog = { kind: 'generate' | 'edit' | 'regenerate' | 'revoke'; row: ApiTokenUser };
const labels = apiTokenResource.labels;
const path = apiTokenResource.path;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Generate or edit a user's token: name, scopes, expiry (90 days by default, or never) and the
 * addresses it may be used from. A generate answers the plaintext, which the page shows once.
 */
function TokenForm({ dialog, onDone, onCancel }: { dialog: Dialog; onDone(created: ApiTokenCreated | null): void; onCancel(): void }) {
  const { row } = dialog;
  const editing = dialog.kind === 'edit';
  const [name, setName] = useState(editing ? (row.token_name ?? '') : '');
  const [scopes, setScopes] = useState<string[]>(editing ? row.scopes : ['feeds:write']);
  const [never, setNever] = useState(editing && row.expires_at === null);
  const [expires, setExpires] = useState(editing && row.expires_at ? row.expires_at.slice(0, 10) : inDays(API_TOKEN_DEFAULT_DAYS));
  const [ips, setIps] = useState(editing ? row.allowed_ips.join('\n') : '');
  const { busy, run, error } = useDialogSave();
  const dirty = useChanged({ name, scopes, never, expires, ips });

  const save = () =>
    run(async () => {
      const body = { name, scopes, expires_at: never ? NEVER : expires, allowed_ips: ipList(ips) };
      if (editing) {
        await api.patch(`${path}/${row.token_id}`, { ...body, updated_at: row.updated_at });
        onDone(null);
      } else {
        const { data } = await api.post<{ data: ApiTokenCreated }>(path, { ...body, user_id: row.id });
        onDone(data);
      }
    });

  return (
    <DialogForm onSubmit={save} onCancel={onCancel} busy={busy} dirty={dirty} submitLabel={editing ? 'Save' : 'Generate token'}>
      <Text size="sm">
        For <b>{row.name}</b> ({row.email})
      </Text>
      <TextInput
        label={labels.name}
        required
        maxLength={60}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error('name')}
        data-autofocus
      />
      <Checkbox.Group label={labels.scopes} withAsterisk value={scopes} onChange={setScopes} error={error('scopes')}>
        <Stack gap={4} mt={4}>
          {API_TOKEN_SCOPE_OPTIONS.map((o) => (
            <Checkbox key={o.value} value={o.value} label={o.label} />
          ))}
        </Stack>
      </Checkbox.Group>
      <TextInput
        label={labels.expires_at}
        description="yyyy-MM-dd, after today; rotate tokens every 30–90 days"
        value={never ? '' : expires}
        disabled={never}
        onChange={(e) => setExpires(e.currentTarget.value)}
        error={error('expires_at')}
      />
      <Checkbox label="Never expires (discouraged)" checked={never} onChange={(e) => setNever(e.currentTarget.checked)} />
      <AllowedIpsInput label={apiTokenResource.fields.allowed_ips.label} value={ips} onChange={setIps} error={error('allowed_ips')} />
    </DialogForm>
  );
}

/** Regenerate: a new token now; the old one keeps working for the grace period (0 = revoked at once). */
function RegenerateForm({ row, onDone, onCancel }: { row: ApiTokenUser; onDone(created: ApiTokenCreated): void; onCancel(): void }) {
  const [grace, setGrace] = useState<number | string>(0);
  const { busy, run, error } = useDialogSave();
  const cancel = useGuardedClose(String(grace) !== '0', onCancel);
  const regenerate = () =>
    run(async () => {
      const { data } = await api.post<{ data: ApiTokenCreated }>(`${path}/${row.token_id}/regenerate`, { grace_hours: Number(grace) });
      onDone(data);
    });
  return (
    <Stack gap="sm">
      <Text size="sm">
        A new token replaces <b>{row.token_name}</b> of {row.name}. Endpoints linked to it take the new one.
      </Text>
      <NumberInput
        label={API_TOKEN_REGENERATE_LABELS.grace_hours}
        description={`The old token keeps working this long (0–${API_TOKEN_MAX_GRACE_HOURS}); 0 revokes it at once`}
        min={0}
        max={API_TOKEN_MAX_GRACE_HOURS}
        allowDecimal={false}
        value={grace}
        onChange={setGrace}
        error={error('grace_hours')}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button loading={busy} onClick={() => void regenerate()}>
          Regenerate
        </Button>
      </Group>
    </Stack>
  );
}

function RevokeConfirm({ row, onDone, onCancel }: { row: ApiTokenUser; onDone(message: string): void; onCancel(): void }) {
  const { busy, run } = useDialogSave();
  const revoke = () =>
    run(async () => {
      await api.post(`${path}/${row.token_id}/revoke`);
      onDone(`Revoked ${row.token_name ?? 'the token'} of ${row.name}`);
    });
  return (
    <Stack gap="sm">
      <Text size="sm">
        Calls with <b>{row.api_token}</b> are refused from now on. Endpoints bound to it refuse every call until they are given another
        token, and their webhook secrets are removed. This cannot be undone.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" loading={busy} onClick={() => void revoke()}>
          Revoke token
        </Button>
      </Group>
    </Stack>
  );
}

const TITLES: Record<Dialog['kind'], (row: ApiTokenUser) => string> = {
  generate: (r) => `Generate a token for ${r.name}`,
  edit: (r) => `Edit token ${r.token_name ?? ''}`,
  regenerate: (r) => `Regenerate token ${r.token_name ?? ''}`,
  revoke: (r) => `Revoke token ${r.token_name ?? ''}?`,
};
const STATE_COLORS = { none: 'gray', active: 'green', expired: 'orange', revoked: 'red', suspended: 'grape' } as const;

/**
 * API Token Generation: every user with their newest token (never its secret). Generate shows the
 * plaintext once; Edit, Regenerate (with a grace period) and Revoke act on the user's token.
 */
export default function ApiTokenGenerationPage() {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [list, setList] = useState<ResourceList<ApiTokenUser> | null>(null);
  const close = () => setDialog(null);
  /** After an action: the new plaintext shown once (generate, regenerate), or a toast. */
  const finish = async (token: ApiTokenCreated | null, message: string | null) => {
    setDialog(null);
    if (token) setCreated(token);
    if (message) notifications.show({ color: 'green', message });
    await list?.refresh();
  };

  return (
    <>
      <ResourcePage<ApiTokenUser>
        resource={apiTokenResource}
        readOnly
        title={(r) => r.name}
        intro={
          <Text size="sm" c="dimmed">
            Tokens let integrations call the API (e.g. the ingest endpoints of API Managers). Only a token's first and last characters are
            kept. {TOKEN_HOLDER_RULE}; a token whose user loses that right is Suspended: refused until the right is back.
          </Text>
        }
        cells={{
          state: (r) => (
            <Badge color={STATE_COLORS[r.state]} variant="light">
              {apiTokenResource.columns.find((c) => c.key === 'state')?.format?.(r)}
            </Badge>
          ),
          api_token: (r) => (
            <Text ff="monospace" size="sm">
              {r.api_token ?? '—'}
            </Text>
          ),
        }}
        rowActions={(row, rowList) => {
          const open = (kind: Dialog['kind']) => {
            setList(rowList);
            setDialog({ kind, row });
          };
          const live = row.state === 'active' || row.state === 'expired' || row.state === 'suspended';
          return (
            <Group gap={4} wrap="nowrap">
              {!live && row.may_hold_token && (
                <Button size="compact-xs" variant="subtle" aria-label={`Generate token for ${row.name}`} onClick={() => open('generate')}>
                  Generate
                </Button>
              )}
              {!live && !row.may_hold_token && (
                <Text size="xs" c="dimmed">
                  May not hold a token
                </Text>
              )}
              {live && (
                <>
                  <Button size="compact-xs" variant="subtle" aria-label={`Edit token of ${row.name}`} onClick={() => open('edit')}>
                    Edit
                  </Button>
                  {row.state !== 'suspended' && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      aria-label={`Regenerate token of ${row.name}`}
                      onClick={() => open('regenerate')}
                    >
                      Regenerate
                    </Button>
                  )}
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Revoke token of ${row.name}`}
                    onClick={() => open('revoke')}
                  >
                    Revoke
                  </Button>
                </>
              )}
            </Group>
          );
        }}
      />
      <GuardedModal opened={dialog !== null} onClose={close} title={dialog ? TITLES[dialog.kind](dialog.row) : ''} centered size="lg">
        {dialog && (dialog.kind === 'generate' || dialog.kind === 'edit') && (
          <TokenForm dialog={dialog} onDone={(t) => void finish(t, t ? null : 'Saved the token')} onCancel={close} />
        )}
        {dialog?.kind === 'regenerate' && <RegenerateForm row={dialog.row} onDone={(t) => void finish(t, null)} onCancel={close} />}
        {dialog?.kind === 'revoke' && <RevokeConfirm row={dialog.row} onDone={(message) => void finish(null, message)} onCancel={close} />}
      </GuardedModal>
      <SecretOnceDialog
        title="Copy your new token"
        label="Token"
        value={created?.token ?? null}
        note="This is the only time the token is shown. Copy it now and keep it somewhere safe; it cannot be retrieved later."
        onClose={() => setCreated(null)}
      />
    </>
  );
}
