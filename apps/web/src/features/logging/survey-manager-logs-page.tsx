import {
  FEED_RUN_STATUS_LABELS,
  type FeedRun,
  feedRunResource,
  runStatusText,
  SURVEY_CHANGE_ACTION_LABELS,
  type SurveyChange,
  surveyChangeResource,
  surveyDiffRows,
} from '@admin/shared/resources/survey-manager-logs';
import { Badge, Stack, Tabs, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { DiffTable } from './diff-table.tsx';
import { RunDetail } from './run-detail.tsx';

const RUN_COLORS: Record<FeedRun['run_status'], string> = { running: 'blue', succeeded: 'green', partial: 'orange', failed: 'red' };

const runCells = {
  started_at: (r: FeedRun) => <DateTimeCell value={r.started_at} zone={r.client_timezone} />,
  finished_at: (r: FeedRun) => (r.finished_at ? <DateTimeCell value={r.finished_at} zone={r.client_timezone} /> : null),
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

/** One change: each field (or question) before and after, by the survey form's labels. */
function ChangeDetail({ row }: { row: SurveyChange }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        {formatDateTime(row.at, row.client_timezone)} · {row.user_name ?? 'System'} · {row.survey_name ?? `survey ${row.survey_id}`} ·{' '}
        {SURVEY_CHANGE_ACTION_LABELS[row.action]}
      </Text>
      <DiffTable rows={surveyDiffRows(row.diff, row.client_timezone)} label="Diff" />
    </Stack>
  );
}

const changeCells = {
  at: (r: SurveyChange) => <DateTimeCell value={r.at} zone={r.client_timezone} />,
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
