import {
  type FeedRun,
  type FeedRunDetail,
  feedRunResource,
  refusedRows,
  skippedText,
  sourceLabel,
} from '@admin/shared/resources/survey-manager-logs';
import { Button, Group, List, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FieldGrid } from '../../components/field-grid.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { downloadCsv } from '../../lib/download.ts';
import { formatDateTime } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';
import { followRun } from '../../lib/run-progress.ts';

/** Download rejected rows (CSV) and Re-run failed rows, for a run that refused some. */
function RunActions({ run }: { run: FeedRunDetail }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'download' | 'rerun' | null>(null);
  const act = async (what: 'download' | 'rerun') => {
    setBusy(what);
    try {
      if (what === 'download') {
        const { fileName } = await downloadCsv(`${feedRunResource.path}/${run.id}/rejected`, {}, () => {});
        notifications.show({ color: 'green', message: `Saved ${fileName}` });
      } else {
        // The re-run is stored at once and admitted by the workers: the list shows it running, then its outcome.
        const { data: started } = await api.post<{ data: FeedRunDetail }>(`${feedRunResource.path}/${run.id}/rerun`, {});
        await queryClient.invalidateQueries({ queryKey: [feedRunResource.screen] });
        const data = await followRun(started.id, () => undefined);
        notifications.show({
          color: data.run_status === 'failed' ? 'red' : 'green',
          message: `Run ${data.id}: ${data.rows_accepted} accepted, ${data.rows_invalid} still invalid`,
        });
        await queryClient.invalidateQueries({ queryKey: [feedRunResource.screen] });
      }
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" loading={busy === 'download'} onClick={() => void act('download')}>
        Download rejected rows
      </Button>
      <Button size="xs" variant="light" loading={busy === 'rerun'} onClick={() => void act('rerun')}>
        Re-run failed rows
      </Button>
    </Group>
  );
}

const wrap = { overflowWrap: 'anywhere' } as const;

/**
 * The refused rows, one table row each whatever the number of its errors: where it was in the
 * file, each error after the column it names, and the row as received once, column by column.
 */
function RefusedRows({ run }: { run: FeedRunDetail }) {
  const rows = refusedRows(run.row_errors);
  const where = run.source === 'api' ? 'Row' : 'Line';
  return (
    <Table withTableBorder fz="sm" aria-label="Row errors">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{where}</Table.Th>
          <Table.Th>Errors</Table.Th>
          <Table.Th>Row as received</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.row_number}>
            <Table.Td>{r.row_number}</Table.Td>
            <Table.Td style={wrap}>
              <List size="sm" spacing={2}>
                {r.errors.map((e) => (
                  <List.Item key={`${e.column ?? ''} ${e.message}`}>{e.column ? `${e.column}: ${e.message}` : e.message}</List.Item>
                ))}
              </List>
            </Table.Td>
            <Table.Td style={wrap}>
              <Text size="xs" c="dimmed">
                {Object.entries(r.raw)
                  .map(([column, value]) => `${column}: ${value === '' ? '—' : value}`)
                  .join(' · ')}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One run: its counts and its refused rows, each once with all its errors and the row as received. */
export function RunDetail({ row }: { row: FeedRun }) {
  const { data: d, states } = useResourceDetail<FeedRunDetail>(feedRunResource, row.id);
  const zone = row.client_timezone;
  const fields: [string, string][] = [
    ['Started', formatDateTime(row.started_at, zone)],
    ['Finished', row.finished_at ? formatDateTime(row.finished_at, zone) : '—'],
    ['Client', row.client_name ?? '—'],
    ['Feed', row.feed_name ?? '—'],
    ['Source', sourceLabel(row.source)],
    ['Source file or API', row.source_name],
    ['Rows read', String(row.rows_read)],
    ['Accepted', String(row.rows_accepted)],
    ['Skipped', skippedText(row.rows_skipped) || '0'],
    ['Invalid', String(row.rows_invalid)],
    ['Surveys scheduled', String(row.scheduled)],
    ['Started by', row.started_by_name ?? 'Schedule'],
    ['Re-run of', row.rerun_of === null ? '—' : `run ${row.rerun_of}`],
  ];
  return (
    <Stack gap="sm">
      <FieldGrid fields={fields} />
      {row.error && (
        <Text c="red" size="sm">
          {row.error}
        </Text>
      )}
      {states}
      {d && d.row_errors.length === 0 && <Text size="sm">No rows were refused.</Text>}
      {d && d.row_errors.length > 0 && (
        <>
          <RunActions run={d} />
          {d.source !== 'api' && (
            <Text size="xs" c="dimmed">
              Each refused row by its line in the file, the header being line 1.
            </Text>
          )}
          <RefusedRows run={d} />
        </>
      )}
    </Stack>
  );
}
