import { type ApiTokenCreated, type ApiTokenUser, apiTokenResource, TOKEN_HOLDER_RULE } from '@admin/shared/resources/api-tokens';
import { Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { GuardedModal } from '../../components/discard-guard.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { RegenerateForm, RevokeConfirm, type TokenDialog, TokenForm } from './api-token-forms.tsx';
import { SecretOnceDialog } from './dialog-kit.tsx';

type Dialog = TokenDialog;

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
