import { STATUS_LABELS, type Status } from '@admin/shared/constants';
import {
  API_ENDPOINT_SAVE_LABELS,
  type ApiEndpoint,
  apiEndpointResource,
  PAYLOAD_FORMAT_OPTIONS,
  RATE_LIMIT_DEFAULT,
  type WebhookSecretAction,
} from '@admin/shared/resources/api-endpoints';
import { Badge, Button, CopyButton, Group, NumberInput, Radio, Select, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PathCell } from '../../components/data-table/cells.tsx';
import { GuardedModal, useChanged } from '../../components/discard-guard.tsx';
import { SearchableSelect } from '../../components/filters/searchable-select.tsx';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { StatusActions, StatusBadge } from '../../components/status/status-kit.tsx';
import { api } from '../../lib/http.ts';
import { ingestUrl, RecentCalls, TestPayload } from './api-endpoint-panels.tsx';
import { AllowedIpsInput, DialogForm, ipList, SecretOnceDialog, useDialogSave } from './dialog-kit.tsx';

type Options = { data: { value: string; label: string }[] };
type Dialog = { kind: 'edit' | 'calls' | 'test'; row: ApiEndpoint };
const path = apiEndpointResource.path;
const labels = apiEndpointResource.labels;

/** The webhook secret's choices: what the endpoint has decides what a save may do with it. */
const secretChoices = (has: boolean): { value: WebhookSecretAction; label: string }[] =>
  has
    ? [
        { value: 'keep', label: 'Keep the current secret' },
        { value: 'new', label: 'Replace it with a new secret (the current one stops working)' },
        { value: 'remove', label: 'Remove the secret' },
      ]
    : [
        { value: 'keep', label: 'No secret' },
        { value: 'new', label: 'Make a secret' },
      ];

/**
 * Set up or edit an endpoint: survey, token, IP allowlist, payload format, rate limit, and its
 * webhook secret (none unless asked; made here, shown once, removable).
 */
function EndpointForm({ row, onDone, onCancel }: { row: ApiEndpoint; onDone(secret: string | null): void; onCancel(): void }) {
  const surveys = useQuery({
    queryKey: [path, row._id, 'survey-options'],
    queryFn: () => api.get<Options>(`${path}/${row._id}/survey-options`),
  });
  const tokens = useQuery({
    queryKey: [path, row._id, 'token-options'],
    queryFn: () => api.get<Options>(`${path}/${row._id}/token-options`),
  });
  const [surveyId, setSurveyId] = useState<string | null>(row.survey_id === null ? null : String(row.survey_id));
  const [tokenId, setTokenId] = useState<string | null>(row.token_id === null ? null : String(row.token_id));
  const [ips, setIps] = useState(row.allowed_ips.join('\n'));
  const [format, setFormat] = useState<string>(row.payload_format);
  const [rate, setRate] = useState<number | string>(row.configured ? row.rate_limit_per_min : RATE_LIMIT_DEFAULT);
  const choices = secretChoices(row.has_webhook_secret);
  const [secretAction, setSecretAction] = useState<WebhookSecretAction>('keep');
  const save = useDialogSave();
  const { run, error } = save;
  const dirty = useChanged({ surveyId, tokenId, ips, format, rate, secretAction });

  const submit = () =>
    run(async () => {
      const { data } = await api.put<{ data: { webhook_secret: string | null } }>(`${path}/${row._id}`, {
        survey_id: surveyId === null ? null : Number(surveyId),
        token_id: tokenId === null ? null : Number(tokenId),
        allowed_ips: ipList(ips),
        payload_format: format,
        rate_limit_per_min: rate === '' ? null : Number(rate),
        webhook_secret_action: secretAction,
        // The version edited, once set up (a change made since is then refused, not overwritten).
        ...(row.updated_at ? { updated_at: row.updated_at } : {}),
      });
      onDone(data.webhook_secret);
    });

  return (
    <DialogForm onSubmit={submit} onCancel={onCancel} save={save} dirty={dirty} submitLabel="Save">
      <SearchableSelect
        label={labels.survey_id}
        required
        data={surveys.data?.data ?? []}
        value={surveyId}
        onChange={setSurveyId}
        error={error('survey_id')}
        nothingFoundMessage="This client has no survey"
        data-autofocus
      />
      <SearchableSelect
        label={labels.token_id}
        description="Empty: any token with the feeds:write scope that may feed this client (a super-admin's, or one of its users')"
        clearable
        data={tokens.data?.data ?? []}
        value={tokenId}
        onChange={setTokenId}
        error={error('token_id')}
      />
      <AllowedIpsInput label={apiEndpointResource.fields.allowed_ips.label} value={ips} onChange={setIps} error={error('allowed_ips')} />
      <Select
        label={labels.payload_format}
        required
        allowDeselect={false}
        data={PAYLOAD_FORMAT_OPTIONS}
        value={format}
        onChange={(v) => setFormat(v ?? 'json')}
        error={error('payload_format')}
      />
      <NumberInput
        label={labels.rate_limit_per_min}
        required
        description="Calls per minute, 1–6000"
        min={1}
        max={6000}
        clampBehavior="none"
        allowDecimal={false}
        value={rate}
        onChange={setRate}
        error={error('rate_limit_per_min')}
      />
      <Radio.Group
        label={API_ENDPOINT_SAVE_LABELS.webhook_secret_action}
        description="For a caller that cannot send a token: it sends the secret in the X-Webhook-Secret header. With a token chosen above, the secret works only while that token does, and revoking the token removes it."
        value={secretAction}
        onChange={(v) => {
          const chosen = choices.find((c) => c.value === v);
          if (chosen) setSecretAction(chosen.value);
        }}
        error={error('webhook_secret_action')}
      >
        <Stack gap={4} mt={4}>
          {choices.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} />
          ))}
        </Stack>
      </Radio.Group>
    </DialogForm>
  );
}

const TITLES: Record<Dialog['kind'], (r: ApiEndpoint) => string> = {
  edit: (r) => `${r.configured ? 'Edit' : 'Set up'} the endpoint of ${r.locationname}`,
  calls: (r) => `Recent calls of ${r.locationname}`,
  test: (r) => `Test payload for ${r.locationname}`,
};

/**
 * API Managers: each location as an ingest endpoint (`POST /api/v1/endpoints/{_id}/transactions`)
 * with its survey, token, IP allowlist, rate limit and last day of calls; Set up/Edit, Copy URL,
 * Recent calls, Send test payload, Pause/Resume/Archive.
 */
export default function ApiManagersPage() {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [list, setList] = useState<ResourceList<ApiEndpoint> | null>(null);
  const close = () => setDialog(null);

  const changeStatus = async (row: ApiEndpoint, to: Status, rowList: ResourceList<ApiEndpoint>) => {
    await api.patch(`${path}/${row._id}/status`, { status: to, ...(row.updated_at ? { updated_at: row.updated_at } : {}) });
    notifications.show({ color: 'green', message: `The endpoint of ${row.locationname} is now ${STATUS_LABELS[to]}` });
    await rowList.refresh();
  };

  return (
    <>
      <ResourcePage<ApiEndpoint>
        resource={apiEndpointResource}
        readOnly
        title={(r) => r.locationname}
        intro={(l) => <ClientsShown list={l} optionsPath={apiEndpointResource.filters.client.optionsPath} />}
        cells={{
          ingest_path: (r) => <PathCell value={`POST ${r.ingest_path}`} />,
          status: (r) =>
            r.configured ? (
              <StatusBadge status={r.status} />
            ) : (
              <Badge color="gray" variant="outline">
                Not set up
              </Badge>
            ),
          errors_24h: (r) => (r.errors_24h > 0 ? <Badge color="red">{r.errors_24h}</Badge> : '0'),
          last_call_at: (r) => (r.last_call_at ? new Date(r.last_call_at).toLocaleString() : 'Never'),
        }}
        rowActions={(row, rowList) => {
          const open = (kind: Dialog['kind']) => {
            setList(rowList);
            setDialog({ kind, row });
          };
          return (
            <Group gap={4} wrap="nowrap">
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`${row.configured ? 'Edit' : 'Set up'} endpoint of ${row.locationname}`}
                onClick={() => open('edit')}
              >
                {row.configured ? 'Edit' : 'Set up'}
              </Button>
              <CopyButton value={ingestUrl(row)}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="subtle" aria-label={`Copy URL of ${row.locationname}`} onClick={copy}>
                    {copied ? 'Copied' : 'Copy URL'}
                  </Button>
                )}
              </CopyButton>
              <Button size="compact-xs" variant="subtle" aria-label={`Recent calls of ${row.locationname}`} onClick={() => open('calls')}>
                Calls
              </Button>
              {row.configured && (
                <>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    aria-label={`Send test payload to ${row.locationname}`}
                    onClick={() => open('test')}
                  >
                    Send test
                  </Button>
                  <StatusActions
                    status={row.status}
                    what={`the endpoint of ${row.locationname}`}
                    effects={apiEndpointResource.statusEffects ?? {}}
                    onChange={(to) => changeStatus(row, to, rowList)}
                  />
                </>
              )}
            </Group>
          );
        }}
      />
      <GuardedModal
        opened={dialog !== null}
        onClose={close}
        title={dialog ? TITLES[dialog.kind](dialog.row) : ''}
        centered
        size={dialog?.kind === 'edit' ? 'md' : 'xl'}
      >
        {dialog?.kind === 'edit' && (
          <EndpointForm
            row={dialog.row}
            onCancel={close}
            onDone={(made) => {
              close();
              setSecret(made);
              notifications.show({ color: 'green', message: `Saved the endpoint of ${dialog.row.locationname}` });
              void list?.refresh();
            }}
          />
        )}
        {dialog?.kind === 'calls' && <RecentCalls row={dialog.row} />}
        {dialog?.kind === 'test' && <TestPayload row={dialog.row} />}
      </GuardedModal>
      <SecretOnceDialog
        title="Copy the webhook secret"
        label={API_ENDPOINT_SAVE_LABELS.webhook_secret_action}
        value={secret}
        note="This is the only time the webhook secret is shown; only its hash is kept. A caller that cannot send an API token sends this in the X-Webhook-Secret header instead; while the endpoint is bound to a token, the secret works only while that token does."
        onClose={() => setSecret(null)}
      />
    </>
  );
}
