import type { PerformanceFigures, PerformanceReport } from '@admin/shared';
import { Anchor, Paper, SimpleGrid, Skeleton, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { type ChangeKind, changeOf } from './performance-change.ts';
import { DELIVERED_STATUSES, type DrillTarget, formatCount, formatMean, formatNps, formatPercent } from './performance-columns.ts';

type CardSpec = {
  label: string;
  value(f: PerformanceFigures): string;
  hint?(f: PerformanceFigures): string;
  /** The figure the change is of, how it changes, and whether up is good. */
  change: { of(f: PerformanceFigures): number | null; kind: ChangeKind; upIsGood?: boolean };
  /** The rows behind the number, when a list holds them. */
  drill?: DrillTarget;
};

const MANAGER: DrillTarget = { screen: 'manager' };

/** The cards of issue 23 in their order; the change of a two-part card is of its first part. */
export const PERFORMANCE_CARDS: CardSpec[] = [
  { label: 'Sent', value: (f) => formatCount(f.sent), change: { of: (f) => f.sent, kind: 'count' }, drill: { screen: 'processing' } },
  {
    label: 'Delivered %',
    value: (f) => formatPercent(f.deliveredRate),
    hint: (f) => `${formatCount(f.delivered)} delivered`,
    change: { of: (f) => f.deliveredRate, kind: 'points' },
    drill: { screen: 'processing', statuses: DELIVERED_STATUSES },
  },
  { label: 'Responses', value: (f) => formatCount(f.responses), change: { of: (f) => f.responses, kind: 'count' }, drill: MANAGER },
  {
    label: 'Response rate',
    value: (f) => formatPercent(f.responseRate),
    hint: () => 'Responses / delivered',
    change: { of: (f) => f.responseRate, kind: 'points' },
    drill: MANAGER,
  },
  {
    label: 'NPS',
    value: (f) => formatNps(f.nps),
    hint: (f) => `${formatCount(f.promoters)} promoters · ${formatCount(f.passives)} passives · ${formatCount(f.detractors)} detractors`,
    change: { of: (f) => f.nps, kind: 'points' },
    drill: MANAGER,
  },
  {
    label: 'CSAT %',
    value: (f) => formatPercent(f.csat),
    hint: () => 'Share of 4 and 5',
    change: { of: (f) => f.csat, kind: 'points' },
    drill: MANAGER,
  },
  { label: 'Avg score', value: (f) => formatMean(f.avgScore), change: { of: (f) => f.avgScore, kind: 'mean' }, drill: MANAGER },
  {
    label: 'Alerts fired / unsent',
    value: (f) => `${formatCount(f.alertsFired)} / ${formatCount(f.alertsUnsent)}`,
    change: { of: (f) => f.alertsFired, kind: 'count', upIsGood: false },
  },
  {
    label: 'Review invites → posted',
    value: (f) => `${formatCount(f.invites)} → ${formatCount(f.reviewsPosted)}`,
    hint: (f) => `${formatPercent(f.conversion)} conversion`,
    change: { of: (f) => f.invites, kind: 'count' },
  },
  { label: 'New public reviews', value: (f) => formatCount(f.newReviews), change: { of: (f) => f.newReviews, kind: 'count' } },
  {
    label: 'Avg public rating',
    value: (f) => (f.avgReviewRating === null ? '—' : `${formatMean(f.avgReviewRating)}/5`),
    change: { of: (f) => f.avgReviewRating, kind: 'mean' },
  },
];

function ChangeLine({ spec, cards }: { spec: CardSpec; cards: PerformanceReport['cards'] }) {
  const change = changeOf(spec.change.of(cards.current), spec.change.of(cards.previous), spec.change.kind, spec.change.upIsGood ?? true);
  if (change.kind === 'none') {
    return (
      <Text size="xs" c="dimmed" data-change="none">
        {change.words.replace(/^./, (c) => c.toUpperCase())}
      </Text>
    );
  }
  // Red and green say better or worse at a glance; the arrow and the words say it without colour.
  const color = change.good === null ? 'dimmed' : change.good ? 'teal.9' : 'red.9';
  const arrow = change.direction === 'up' ? '▲' : change.direction === 'down' ? '▼' : '■';
  return (
    <Text size="xs" c={color} fw={600} data-change={change.direction}>
      <span aria-hidden="true">
        {arrow} {change.text}
      </span>
      <VisuallyHidden>{change.words}</VisuallyHidden>
      <Text span size="xs" c="dimmed" fw={400}>
        {' '}
        (was {spec.value(cards.previous)})
      </Text>
    </Text>
  );
}

/** A card's number: a link to the rows behind it where there is a list of them. */
function CardValue({ spec, text, href }: { spec: CardSpec; text: string; href: string | null }) {
  if (!href || !spec.drill || text === '—') {
    return (
      <Text fz={22} fw={700}>
        {text}
      </Text>
    );
  }
  const where = spec.drill.screen === 'manager' ? 'Survey Manager' : 'Survey Processing';
  return (
    <Anchor component={Link} to={href} fz={22} fw={700} display="block" aria-label={`${spec.label}: ${text}, open the rows in ${where}`}>
      {text}
    </Anchor>
  );
}

/**
 * The report's cards, each with its change against the previous equal period; `drill` gives the
 * link of a number's rows (none on paper).
 */
export function PerformanceCards({
  cards,
  previousLabel,
  drill,
}: {
  cards: PerformanceReport['cards'] | undefined;
  previousLabel: string;
  drill?: (target: DrillTarget) => string;
}) {
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, lg: 4, xl: 6 }}
      spacing="sm"
      role="region"
      aria-label={`Performance cards, compared with ${previousLabel}`}
      className="performance-cards"
    >
      {PERFORMANCE_CARDS.map((spec) => (
        <Paper key={spec.label} withBorder p="sm" role="group" aria-label={spec.label} className="performance-card">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {spec.label}
          </Text>
          {cards ? (
            <>
              <CardValue spec={spec} text={spec.value(cards.current)} href={spec.drill && drill ? drill(spec.drill) : null} />
              {spec.hint && (
                <Text size="xs" c="dimmed">
                  {spec.hint(cards.current)}
                </Text>
              )}
              <ChangeLine spec={spec} cards={cards} />
            </>
          ) : (
            <Skeleton h={28} mt={4} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
