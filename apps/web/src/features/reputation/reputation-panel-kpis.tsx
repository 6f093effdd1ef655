import { percentOf, REPUTATION_PATH, type ReputationKpis, reviewSiteLabel } from '@admin/shared';
import { Alert, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/http.ts';
import type { ReputationList } from './reputation-panel-list.tsx';

function Kpi({ label, value, hint }: { label: string; value: string | null; hint?: string }) {
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      {value === null ? (
        <Skeleton h={28} mt={4} />
      ) : (
        <Text fz={24} fw={700}>
          {value}
        </Text>
      )}
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/**
 * The six KPI cards (domain.md §10) for the list's filters: invites sent, click-through, reviews
 * posted, conversion (posted/invited), the posted reviews' average rating, and every new review
 * on the site in the range, amplified or not.
 */
export function ReputationKpiCards({ list }: { list: ReputationList }) {
  const query = list.filterQuery();
  const kpis = useQuery({
    queryKey: ['reputation-panel', 'kpis', list.currentClient?.id, query],
    queryFn: ({ signal }) => api.get<{ data: ReputationKpis }>(`${REPUTATION_PATH}/kpis`, { query, signal, host: 'reputation' }),
    placeholderData: keepPreviousData,
    enabled: !list.waiting,
    meta: { what: 'KPI cards' },
  });
  if (kpis.error) {
    return (
      <Alert color="red" variant="light" title="The KPI cards could not be loaded">
        {kpis.error.message}
      </Alert>
    );
  }
  const k = kpis.data?.data;
  const site = reviewSiteLabel(typeof query.site === 'string' ? query.site : 'google');
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" aria-label="KPI cards" role="region">
      <Kpi label="Invites sent" value={k ? k.invited.toLocaleString('en-US') : null} />
      <Kpi
        label="Click-through"
        value={k ? percentOf(k.clicked, k.invited) : null}
        hint={k ? `${k.clicked.toLocaleString('en-US')} clicked` : undefined}
      />
      <Kpi label="Reviews posted" value={k ? k.posted.toLocaleString('en-US') : null} />
      <Kpi label="Conversion" value={k ? percentOf(k.posted, k.invited) : null} hint="Posted / invited" />
      <Kpi
        label="Average rating"
        value={k ? (k.average_rating === null ? '—' : `${k.average_rating.toFixed(1)}/5`) : null}
        hint="Of posted reviews"
      />
      <Kpi label={`New reviews on ${site}`} value={k ? k.new_reviews.toLocaleString('en-US') : null} hint="All, not only amplified" />
    </SimpleGrid>
  );
}
