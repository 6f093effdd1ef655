import {
  AMPLIFICATION_STATUSES,
  type AmplificationStatus,
  amplificationStatusLabel,
  matchConfidenceText,
  type ReputationItem,
  reputationResource,
} from '@admin/shared';
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { DateTimeCell, EmptyCell } from '../../components/data-table/cells.tsx';
import { ColumnChooser } from '../../components/data-table/column-chooser.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { FilterBar } from '../../components/filters/filter-bar.tsx';
import { SearchFilter } from '../../components/filters/search-filter.tsx';
import { Page } from '../../components/page.tsx';
import { ResourceTable } from '../../components/resource/resource-table.tsx';
import { GoogleConnectionButton } from './google-connection.tsx';
import { ReputationRowActions } from './reputation-panel-actions.tsx';
import { ReputationKpiCards } from './reputation-panel-kpis.tsx';
import { ReputationFilterFields, useReputationList } from './reputation-panel-list.tsx';
import { ReviewImportButton } from './review-import.tsx';

const def = reputationResource;

const STATUS_COLORS: Record<AmplificationStatus, string> = {
  invited: 'blue',
  clicked: 'cyan',
  posted: 'green',
  not_posted: 'gray',
  opted_out: 'yellow',
  failed: 'red',
};

function StatusBadge({ r }: { r: ReputationItem }) {
  return (
    <Badge color={STATUS_COLORS[r.status]} variant="light" title={r.status_reason ?? undefined}>
      {amplificationStatusLabel(r.status)}
    </Badge>
  );
}

/** The review's first words with a link to it on the site; a pending suggestion says so. */
function ExcerptCell({ r }: { r: ReputationItem }) {
  if (r.review_id === null) {
    return r.suggested_review_id === null ? <EmptyCell /> : <Text size="sm">Suggested match waiting for review</Text>;
  }
  return (
    <Stack gap={0}>
      <Text size="sm" lineClamp={2}>
        {r.review_excerpt ?? 'No text'}
      </Text>
      {r.review_url && (
        <Anchor href={r.review_url} target="_blank" rel="noopener noreferrer" size="xs">
          Open review
        </Anchor>
      )}
    </Stack>
  );
}

const cells = {
  invited_at: (r: ReputationItem) => <DateTimeCell value={r.invited_at} zone={r.client_timezone} />,
  clicked_at: (r: ReputationItem) => <DateTimeCell value={r.clicked_at} zone={r.client_timezone} />,
  review_detected_at: (r: ReputationItem) => <DateTimeCell value={r.review_detected_at} zone={r.client_timezone} />,
  review_excerpt: (r: ReputationItem) => <ExcerptCell r={r} />,
  review_url: (r: ReputationItem) =>
    r.review_url ? (
      <Anchor href={r.review_url} target="_blank" rel="noopener noreferrer" size="sm">
        Open review
      </Anchor>
    ) : (
      <EmptyCell />
    ),
  match_confidence: (r: ReputationItem) => matchConfidenceText(r) ?? <EmptyCell />,
  status: (r: ReputationItem) => <StatusBadge r={r} />,
};

const STATUS_COUNT = AMPLIFICATION_STATUSES.length;

/**
 * Reputation Panel (domain.md §10): did the happy customers invited to review actually post? KPI
 * cards, then the amplifications of the current client on the chosen site (Google by default),
 * filtered in the URL, with Resend invite, Match review manually and Unmatch on each row.
 */
export default function ReputationPanelPage() {
  const list = useReputationList();
  const { params, update, waiting, currentClient } = list;
  const active =
    ['endpoint', 'location', 'personnel'].filter((k) => (params.multi[k] ?? []).length > 0).length +
    ((params.multi.status ?? []).length > 0 && (params.multi.status ?? []).length < STATUS_COUNT ? 1 : 0) +
    (params.single.startDate || params.single.endDate ? 1 : 0);
  const clear = () =>
    update({ q: '', multi: { endpoint: [], location: [], personnel: [], status: [] }, single: { startDate: '', endDate: '' } });
  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={def.columns} choice={list.columns.choice} onChange={list.columns.setChoice} />
          <ExportButton path={`${def.path}/export`} query={list.exportQuery} />
          {!waiting && <ReviewImportButton onImported={() => void list.refresh()} />}
          {!waiting && <GoogleConnectionButton />}
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
      </Text>
      <Alert variant="light" color="blue" p="xs" title="Every respondent is invited">
        Review invitations go to every respondent, whatever their score (Surveys, review invite mode). Inviting only high scorers (threshold
        mode) is review gating, which Google's policy forbids: a Google Business Profile can lose its reviews for it.
      </Alert>
      {!waiting && <ReputationKpiCards list={list} />}
      <FilterBar
        search={<SearchFilter value={params.q} placeholder={def.search} onChange={(q) => update({ q })} />}
        active={active}
        status={list.list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      >
        <ReputationFilterFields list={list} />
      </FilterBar>
      <ResourceTable<ReputationItem>
        resource={def}
        list={list}
        caption="Reputation items"
        empty={{
          title: waiting
            ? 'Choose a client to see its reputation items.'
            : `No reputation items${currentClient ? ` of ${currentClient.name}` : ''} match these filters.`,
          action: waiting ? undefined : (
            <Button size="xs" variant="light" onClick={clear}>
              Clear all filters
            </Button>
          ),
        }}
        rowName={(r) => r.customer_name || `Invitation ${r.id}`}
        cells={cells}
        rowActions={(r) => <ReputationRowActions row={r} onChanged={() => void list.refresh()} />}
      />
    </Page>
  );
}
