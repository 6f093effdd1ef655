import {
  FEED_RUN_STATUS_LABELS,
  type FeedRun,
  type FeedRunDetail,
  feedRunResource,
  runStatusText,
  SURVEY_CHANGE_ACTION_LABELS,
  type SurveyChange,
  skippedText,
  surveyChangeResource,
} from '@admin/shared/resources/survey-manager-logs';
import { Badge, Button, Code, Group, Stack, Table, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { FieldGrid } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { downloadCsv } from '../../lib/download.ts';
import { formatDateTime } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';
import { followRun } from '../../lib/run-progress.ts';

const RUN_COLORS: Record<FeedRun['run_status'], string> = { running: 'blue', succeeded: 'green', partial: 'orange', failed: 'red' };

const runCells = {
  started_at: (r: FeedRun) => <DateTimeCell value={r.started_at} />,
  finished_at: (r: FeedRun) => (r.finished_at ? <DateTimeCell value={r.finished_at} /> : null),
  // A running run says how far it got under its badge (the badge stays short enough for the column).
  status: (r: FeedRun) => (
    <Stack gap={2} align="flex-start">
      <Badge color={RUN_COLORS[r.run_status]} variant="light">
        {FEED_RUN_STATUS_LABELS[r.run_status]}
      </Badge>
      {r.run_status === 'running' && (
        <Text size="xs" c="dimmed">
          {runStatusText(r).replace(/^Running: /, '')}
        </Text>
      )}
    </Stack>
  ),
};

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

/** One run: its counts and its per-row errors (row number, column, message, the row as received). */
function RunDetail({ row }: { row: FeedRun }) {
  const { data: d, states } = useResourceDetail<FeedRunDetail>(feedRunResource, row.id);
  const fields: [string, string][] = [
    ['Started', formatDateTime(row.started_at)],
    ['Finished', row.finished_at ? formatDateTime(row.finished_at) : '—'],
    ['Client', row.client_name ?? '—'],
    ['Feed', row.feed_name ?? '—'],
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
          <Table withTableBorder fz="sm" aria-label="Row errors">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Column</Table.Th>
                <Table.Th>Error</Table.Th>
                <Table.Th>Row as received</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.row_errors.map((e) => (
                <Table.Tr key={`${e.row_number} ${e.column ?? ''} ${e.message}`}>
                  <Table.Td>{e.row_number}</Table.Td>
                  <Table.Td>{e.column ?? '—'}</Table.Td>
                  <Table.Td>{e.message}</Table.Td>
                  <Table.Td>
                    <Code style={{ overflowWrap: 'anywhere' }}>{JSON.stringify(e.raw)}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}

const text = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v, null, 1));

/** One change: each field (or question) before and after. */
function ChangeDetail({ row }: { row: SurveyChange }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        {formatDateTime(row.at)} · {row.user_name ?? 'System'} · {row.survey_name ?? `survey ${row.survey_id}`} ·{' '}
        {SURVEY_CHANGE_ACTION_LABELS[row.action]}
      </Text>
      <Table withTableBorder fz="sm" aria-label="Diff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Before</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(row.diff).map(([field, { before, after }]) => (
            <Table.Tr key={field}>
              <Table.Th>{field}</Table.Th>
              <Table.Td>
                <Code block>{text(before)}</Code>
              </Table.Td>
              <Table.Td>
                <Code block>{text(after)}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

const changeCells = {
  at: (r: SurveyChange) => <DateTimeCell value={r.at} />,
};

const TABS = { runs: 'Runs', changes: 'Changes' } as const;
type Tab = keyof typeof TABS;

/**
 * Survey Manager Logs (docs/screens.md): the feeds' runs (`?feed=<id>` from Survey Platform) and the
 * surveys' changes, two read-only lists; the tab is in the URL, and changing it starts its filters afresh.
 */
export default function SurveyManagerLogsPage() {
  const [search, setSearch] = useSearchParams();
  const tab: Tab = search.get('tab') === 'changes' ? 'changes' : 'runs';
  return (
    <Tabs value={tab} onChange={(next) => next && next !== tab && setSearch(next === 'runs' ? {} : { tab: next })} keepMounted={false}>
      <Tabs.List mb="sm">
        {Object.entries(TABS).map(([value, label]) => (
          <Tabs.Tab key={value} value={value}>
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="runs">
        <ResourcePage
          resource={feedRunResource}
          readOnly
          detail={RunDetail}
          title={(r) => `run ${r.id}`}
          cells={runCells}
          intro={false}
          empty="No runs match these filters."
        />
      </Tabs.Panel>
      <Tabs.Panel value="changes">
        <ResourcePage
          resource={surveyChangeResource}
          readOnly
          detail={ChangeDetail}
          title={(r) => `change ${r.id}`}
          cells={changeCells}
          intro={false}
          empty="No survey changes match these filters."
        />
      </Tabs.Panel>
    </Tabs>
  );
}
