import { STATUS_LABELS, type Status } from '@admin/shared/constants';
import {
  type ApiCall,
  type ApiEndpoint,
  apiEndpointResource,
  PAYLOAD_FORMAT_OPTIONS,
  RATE_LIMIT_DEFAULT,
} from '@admin/shared/resources/api-endpoints';
import type { FeedValidation } from '@admin/shared/resources/data-feeds';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PathCell } from '../../components/data-table/cells.tsx';
import { GuardedModal, useChanged } from '../../components/discard-guard.tsx';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { StatusActions, StatusBadge } from '../../components/status/status-kit.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { api } from '../../lib/http.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { AllowedIpsInput, DialogForm, ipList, problemOf, SecretOnceDialog, useDialogSave } from './dialog-kit.tsx';

type Options = { data: { value: string; label: string }[] };
type Dialog = { kind: 'edit' | 'calls' | 'test'; row: ApiEndpoint };
const path = apiEndpointResource.path;
const labels = apiEndpointResource.labels;

/** The endpoint's full URL: the API's own origin (the console's when the API is served with it). */
const ingestUrl = (row: ApiEndpoint) => `${runtimeConfig().apiBaseUrl || window.location.origin}${row.ingest_path}`;

/** Set up or edit an endpoint: survey, token, IP allowlist, payload format, rate limit; the webhook secret is made here. */
function EndpointForm({ row, onDone, onCancel }: { row: ApiEndpoint; onDone(secret: string | null): void; onCancel(): void }) {
  const surveys = useQuery({
    queryKey: [path, row._id, 'survey-options'],
    queryFn: () => api.get<Options>(`${path}/${row._id}/survey-options`),
  });
  const tokens = useQuery({ queryKey: [path, 'token-options'], queryFn: () => api.get<Options>(`${path}/token-options`) });
  const [surveyId, setSurveyId] = useState<string | null>(row.survey_id === null ? null : String(row.survey_id));
  const [tokenId, setTokenId] = useState<string | null>(row.token_id === null ? null : String(row.token_id));
  const [ips, setIps] = useState(row.allowed_ips.join('\n'));
  const [format, setFormat] = useState<string>(row.payload_format);
  const [rate, setRate] = useState<number | string>(row.configured ? row.rate_limit_per_min : RATE_LIMIT_DEFAULT);
  const [newSecret, setNewSecret] = useState(false);
  const { busy, run, error } = useDialogSave();
  const dirty = useChanged({ surveyId, tokenId, ips, format, rate, newSecret });

  const save = () =>
    run(async () => {
      const { data } = await api.put<{ data: { webhook_secret: string | null } }>(`${path}/${row._id}`, {
        survey_id: surveyId === null ? null : Number(surveyId),
        token_id: tokenId === null ? null : Number(tokenId),
        allowed_ips: ipList(ips),
        payload_format: format,
        rate_limit_per_min: rate === '' ? null : Number(rate),
        ...(newSecret ? { new_webhook_secret: true } : {}),
      });
      onDone(data.webhook_secret);
    });

  return (
    <DialogForm onSubmit={save} onCancel={onCancel} busy={busy} dirty={dirty} submitLabel="Save">
      <Select
        label={labels.survey_id}
        required
        searchable
        data={surveys.data?.data ?? []}
        value={surveyId}
        onChange={setSurveyId}
        error={error('survey_id')}
        nothingFoundMessage="This client has no survey"
        data-autofocus
      />
      <Select
        label={labels.token_id}
        description="Empty: any token with the feeds:write scope"
        clearable
        searchable
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
        min={1}
        max={6000}
        allowDecimal={false}
        value={rate}
        onChange={setRate}
        error={error('rate_limit_per_min')}
      />
      {row.configured && (
        <Checkbox
          label={row.has_webhook_secret ? 'Make a new webhook secret (the old one stops working)' : 'Make a webhook secret'}
          checked={newSecret}
          onChange={(e) => setNewSecret(e.currentTarget.checked)}
        />
      )}
    </DialogForm>
  );
}

function RecentCalls({ row }: { row: ApiEndpoint }) {
  const calls = useQuery({ queryKey: [path, row._id, 'calls'], queryFn: () => api.get<{ data: ApiCall[] }>(`${path}/${row._id}/calls`) });
  if (calls.isPending) return <Text size="sm">Loading…</Text>;
  if (calls.error) return <Alert color="red">{problemOf(calls.error)}</Alert>;
  if (calls.data.data.length === 0) return <Text size="sm">No calls yet.</Text>;
  return (
    <Table striped aria-label={`Recent calls of ${row.locationname}`}>
      <TableHead labels={['Time', 'IP', 'Status', 'Accepted', 'Rejected', 'Error']} />
      <Table.Tbody>
        {calls.data.data.map((c) => (
          <Table.Tr key={c.id}>
            <Table.Td>{new Date(c.received_at).toLocaleString()}</Table.Td>
            <Table.Td>{c.ip}</Table.Td>
            <Table.Td>
              <Badge color={c.status_code < 300 ? 'green' : c.status_code < 500 ? 'orange' : 'red'} variant="light">
                {c.status_code}
              </Badge>
            </Table.Td>
            <Table.Td>{c.rows_accepted}</Table.Td>
            <Table.Td>{c.rows_rejected}</Table.Td>
            <Table.Td>{c.error ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Send test payload: the sample row through the endpoint's feed as a dry run, and what the feed made of it. */
function TestPayload({ row }: { row: ApiEndpoint }) {
  const test = useQuery({
    queryKey: [path, row._id, 'test'],
    queryFn: () => api.post<{ data: { payload: Record<string, string>[]; result: FeedValidation } }>(`${path}/${row._id}/test`),
    gcTime: 0,
  });
  if (test.isPending) return <Text size="sm">Sending…</Text>;
  if (test.error) return <Alert color="red">{problemOf(test.error)}</Alert>;
  const { payload, result } = test.data.data;
  return (
    <Stack gap="sm">
      <Text size="sm">Payload (nothing is written: a dry run through the endpoint's feed):</Text>
      <Code block>{JSON.stringify(payload, null, 2)}</Code>
      <Alert color={result.rows_invalid === 0 ? 'green' : 'orange'} role="status">
        {result.rows_valid} of {result.rows_read} rows would be accepted
        {result.errors.map((e) => `; row ${e.row_number}: ${e.message}`).join('')}
      </Alert>
      <Text size="sm">Example call:</Text>
      <Code
        block
      >{`curl -X POST ${ingestUrl(row)} \\\n  -H 'Authorization: Bearer rp_…' -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(payload)}'`}</Code>
    </Stack>
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
        label="Webhook secret"
        value={secret}
        note="This is the only time the webhook secret is shown; only its hash is kept. A caller that cannot send an API token sends this in the X-Webhook-Secret header instead."
        onClose={() => setSecret(null)}
      />
    </>
  );
}
