import { API_CALL_LOG_RETENTION_DAYS, type ApiCall, type ApiEndpoint, apiEndpointResource } from '@admin/shared/resources/api-endpoints';
import type { FeedValidation } from '@admin/shared/resources/data-feeds';
import { Alert, Badge, Code, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { TableHead } from '../../components/table-head.tsx';
import { api } from '../../lib/http.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { problemOf } from './dialog-kit.tsx';

/** API Managers' dialogs that show an endpoint's activity: its recent calls, and a test payload's dry run. */

const path = apiEndpointResource.path;

/** The endpoint's full URL: the API's own origin (the console's when the API is served with it). */
export const ingestUrl = (row: ApiEndpoint) => `${runtimeConfig().apiBaseUrl || window.location.origin}${row.ingest_path}`;

/** How long the server keeps calls: its API_CALL_LOGS_RETENTION_DAYS (null: forever), or the shared default when it did not say. */
function callsKept(said: number | null | undefined): string {
  const days = said === undefined ? API_CALL_LOG_RETENTION_DAYS : said;
  if (days === null) return 'Calls are kept until removed.';
  return `Calls are kept ${days} day${days === 1 ? '' : 's'}.`;
}

export function RecentCalls({ row }: { row: ApiEndpoint }) {
  const calls = useQuery({ queryKey: [path, row._id, 'calls'], queryFn: () => api.get<{ data: ApiCall[] }>(`${path}/${row._id}/calls`) });
  if (calls.isPending) return <Text size="sm">Loading…</Text>;
  if (calls.error) return <Alert color="red">{problemOf(calls.error)}</Alert>;
  const note = (
    <Text size="sm" c="dimmed">
      Calls refused before any credential (no token, an unknown or unusable token, a wrong webhook secret) are not listed: System Logs
      counts them per caller address. {callsKept(runtimeConfig().apiCallLogRetentionDays)}
    </Text>
  );
  if (calls.data.data.length === 0)
    return (
      <Stack gap="sm">
        <Text size="sm">No calls yet.</Text>
        {note}
      </Stack>
    );
  return (
    <Stack gap="sm">
      {note}
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
    </Stack>
  );
}

/** Send test payload: the sample row through the endpoint's feed as a dry run, and what the feed made of it. */
export function TestPayload({ row }: { row: ApiEndpoint }) {
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
