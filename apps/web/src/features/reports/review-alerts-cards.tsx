import { type ReviewAlertReportCards, reviewAlertReportResource } from '@admin/shared';
import { Alert, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/http.ts';
import { type ApiQuery, cardsQuery, REVIEW_ALERT_CARDS } from './review-alerts-format.ts';

/**
 * The §27 cards over the whole filter (`GET <path>/cards`), beside the paged list: the same
 * filters, so a card and the rows it counts never disagree. A refusal (a 422, or the 503 of a
 * report too big to compute in time) is shown where the cards would be.
 */
export function ReviewAlertCards({ exportQuery }: { exportQuery: ApiQuery }) {
  const query = cardsQuery(exportQuery);
  const cards = useQuery({
    queryKey: [reviewAlertReportResource.screen, 'cards', query],
    queryFn: ({ signal }) => api.get<{ data: ReviewAlertReportCards }>(`${reviewAlertReportResource.path}/cards`, { query, signal }),
    placeholderData: keepPreviousData,
    meta: { what: 'review alert cards' },
  });
  if (cards.error)
    return (
      <Alert color="red" title="The cards could not be computed">
        {cards.error.message}
      </Alert>
    );
  const data = cards.data?.data;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" role="region" aria-label="Review alert cards">
      {REVIEW_ALERT_CARDS.map((spec) => (
        <Paper key={spec.label} withBorder p="sm" role="group" aria-label={spec.label}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {spec.label}
          </Text>
          {data ? (
            <>
              <Text fz={22} fw={700}>
                {spec.value(data)}
              </Text>
              {spec.hint && (
                <Text size="xs" c="dimmed">
                  {spec.hint}
                </Text>
              )}
            </>
          ) : (
            <Skeleton h={28} mt={4} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
