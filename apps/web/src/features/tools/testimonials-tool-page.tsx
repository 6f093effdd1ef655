import { type ColumnDef, cardOf, TESTIMONIAL_STATUS_LABELS, type Testimonial } from '@admin/shared';
import { Badge, Button, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DateTimeCell, EmptyCell } from '../../components/data-table/cells.tsx';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { MultiFilter } from '../../components/filters/multi-filter.tsx';
import { Page } from '../../components/page.tsx';
import { api } from '../../lib/http.ts';
import { useSession } from '../../lib/session-store.ts';
import { TestimonialActions } from './testimonial-actions.tsx';
import { EmbedCodeButton } from './testimonial-embed.tsx';
import { exportQueryOf, NO_FILTERS, type TestimonialFilterState, testimonialQueryOf } from './testimonial-query.ts';

type Key =
  | 'submitted_at'
  | 'location_name'
  | 'survey_name'
  | 'personnel_name'
  | 'display_name'
  | 'rating'
  | 'display_text'
  | 'consent'
  | 'status'
  | 'featured'
  | 'words';
const COLUMNS: ColumnDef<Key>[] = [
  { key: 'submitted_at', label: 'Date' },
  { key: 'location_name', label: 'Location' },
  { key: 'survey_name', label: 'Survey' },
  { key: 'personnel_name', label: 'Personnel' },
  { key: 'display_name', label: 'Display name' },
  { key: 'rating', label: 'Score/stars' },
  { key: 'display_text', label: 'Comment' },
  { key: 'consent', label: 'Consent' },
  { key: 'status', label: 'Status' },
  { key: 'featured', label: 'Featured' },
  { key: 'words', label: 'Words' },
];
const VISIBLE = COLUMNS.map((c) => c.key);
const CARD = cardOf(COLUMNS, { title: 'display_name', facts: ['display_text', 'rating', 'location_name', 'submitted_at'] });
const NO_SORT = { sort: undefined, order: undefined };
const STATUS_COLORS: Record<Testimonial['status'], string> = { pending: 'yellow', approved: 'blue', published: 'green', rejected: 'gray' };
type Option = { value: string; label: string };

/** The comment as shown (display text); when edited, the original shows on hover or focus. */
function CommentCell({ t }: { t: Testimonial }) {
  if (t.display_text === t.original_text) return <>{t.display_text}</>;
  return (
    <Tooltip label={`Original: ${t.original_text}`} multiline w={320} withinPortal events={{ hover: true, focus: true, touch: true }}>
      <Text
        component="span"
        size="sm"
        tabIndex={0}
        td="underline dotted"
        aria-label={`${t.display_text} (edited; original: ${t.original_text})`}
      >
        {t.display_text}
      </Text>
    </Tooltip>
  );
}

/**
 * Testimonials Tool (domain.md §9): Location and Survey multi-selects with "Selected All" (options
 * from `GET /api/endpoints` and `GET /api/admin/surveys`) and a date range; any change reloads, and
 * `POST /api/survey-comments-testimonials` runs only when a location, a survey or both dates are set,
 * empty values left out (`testimonialQueryOf`).
 */
export default function TestimonialsToolPage() {
  const currentClient = useSession((s) => s.currentClient);
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TestimonialFilterState>(NO_FILTERS);
  const [confirming, setConfirming] = useState(false);
  const clientId = currentClient?.id ?? null;
  const locations = useQuery({
    queryKey: ['testimonial-locations', clientId],
    queryFn: ({ signal }) =>
      api.get<{ data: { _id: string; locationname: string }[] }>('/api/endpoints', { query: { perPage: '100' }, signal }),
    enabled: clientId !== null,
    meta: { what: 'locations' },
  });
  const surveys = useQuery({
    queryKey: ['testimonial-surveys', clientId],
    queryFn: ({ signal }) => api.get<{ data: { label: string; value: number }[] }>('/api/admin/surveys', { signal }),
    enabled: clientId !== null,
    meta: { what: 'surveys' },
  });
  const locationOptions: Option[] = useMemo(
    () => (locations.data?.data ?? []).map((l) => ({ value: l._id, label: l.locationname })),
    [locations.data],
  );
  const surveyOptions: Option[] = useMemo(
    () => (surveys.data?.data ?? []).map((s) => ({ value: String(s.value), label: s.label })),
    [surveys.data],
  );
  const body = testimonialQueryOf(filters, { locations: locationOptions.map((o) => o.value), surveys: surveyOptions.map((o) => o.value) });
  const list = useQuery({
    queryKey: ['testimonials', clientId, body],
    queryFn: ({ signal }) => api.post<{ data: Testimonial[]; more: boolean }>('/api/survey-comments-testimonials', body, { signal }),
    enabled: clientId !== null && body !== null,
    placeholderData: keepPreviousData,
    meta: { what: 'testimonials' },
  });
  const rows = body === null ? [] : list.data?.data;
  const pending = (rows ?? []).filter((t) => t.status === 'pending');
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['testimonials'] });

  async function bulkApprove() {
    try {
      const res = await api.post<{ data: { approved: number } }>('/api/testimonials/bulk-approve', { ids: pending.map((t) => t.id) });
      notifications.show({ color: 'green', message: `${res.data.approved} testimonial(s) approved.` });
      reload();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Bulk approve refused', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setConfirming(false);
    }
  }

  const renderCell = (key: string, t: Testimonial) => {
    switch (key as Key) {
      case 'submitted_at':
        return <DateTimeCell value={t.submitted_at} zone={currentClient?.timezone} />;
      case 'location_name':
        return t.location_name ?? <EmptyCell />;
      case 'survey_name':
        return t.survey_name;
      case 'personnel_name':
        return t.personnel_name ?? <EmptyCell />;
      case 'display_name':
        return t.display_name;
      case 'rating':
        return t.rating === null ? <EmptyCell /> : `${t.rating}/${t.rating_max ?? ''}`;
      case 'display_text':
        return <CommentCell t={t} />;
      case 'consent':
        return t.consent ? 'Yes' : 'No';
      case 'status':
        return (
          <Badge variant="light" color={STATUS_COLORS[t.status]}>
            {TESTIMONIAL_STATUS_LABELS[t.status]}
          </Badge>
        );
      case 'featured':
        return t.featured ? 'Featured' : 'No';
      case 'words':
        return t.words;
    }
  };

  return (
    <Page
      actions={
        <Group gap="xs">
          <Button disabled={pending.length === 0} onClick={() => setConfirming(true)}>
            Bulk approve
          </Button>
          <ExportButton path="/api/testimonials/export" query={() => exportQueryOf(body)} />
          <EmbedCodeButton locations={locationOptions} />
        </Group>
      }
    >
      <Stack gap="md" mt="md">
        <Group align="flex-end" gap="sm">
          <MultiFilter
            label="Location"
            options={locationOptions}
            value={filters.location}
            onChange={(location) => setFilters({ ...filters, location })}
            emptyLabel="Choose locations"
          />
          <MultiFilter
            label="Survey"
            options={surveyOptions}
            value={filters.survey}
            onChange={(survey) => setFilters({ ...filters, survey })}
            emptyLabel="Choose surveys"
          />
          <DateRangeFilter
            startDate={filters.startDate}
            endDate={filters.endDate}
            onChange={(range) => setFilters({ ...filters, ...range })}
          />
          {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
          {body !== null && list.data && (
            <Text size="sm" c="dimmed" role="status">
              {list.data.more ? `The newest ${list.data.data.length} testimonials` : `${list.data.data.length} testimonial(s)`}
            </Text>
          )}
        </Group>
        <DataTable<Testimonial>
          caption="Testimonials"
          columns={COLUMNS}
          visible={VISIBLE}
          rows={rows}
          rowKey={(t) => t.id}
          rowName={(t) => t.display_name}
          card={CARD}
          sort={NO_SORT}
          defaultSort={{ sort: 'submitted_at', order: 'desc' }}
          onSort={() => undefined}
          isPending={body !== null && list.isPending && clientId !== null}
          error={list.error}
          onRetry={() => void list.refetch()}
          empty={{
            title:
              clientId === null
                ? 'Choose a client to see its testimonials.'
                : body === null
                  ? 'Choose a location, a survey or a date range to see testimonials.'
                  : 'No testimonials match these filters.',
          }}
          renderCell={renderCell}
          rowActions={(t) => <TestimonialActions t={t} onChanged={reload} />}
        />
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Bulk approve">
        <Stack>
          <Text>{`Approve ${pending.length} pending testimonial(s) shown? They can then be published.`}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => void bulkApprove()}>{`Approve ${pending.length}`}</Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}
