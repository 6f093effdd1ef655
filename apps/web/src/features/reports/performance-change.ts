/**
 * A card's change against the previous equal period (issue 23: "each with its change vs the previous
 * period"): counts change by a share of what they were (`+12.5%`), rates and NPS by points
 * (`+3.2 pts`), means by their own unit (`+0.15`). Whether up is good depends on the figure:
 * more unsent alerts is worse.
 */
export type ChangeKind = 'count' | 'points' | 'mean';

export type Change =
  | { kind: 'none'; words: string }
  | { direction: 'up' | 'down' | 'same'; good: boolean | null; text: string; words: string; kind: ChangeKind };

const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function changeOf(current: number | null, previous: number | null, kind: ChangeKind, upIsGood = true): Change {
  if (previous === null || (kind === 'count' && previous === 0)) return { kind: 'none', words: 'no previous data' };
  if (current === null) return { kind: 'none', words: 'no data in this period' };
  const delta = kind === 'count' ? ((current - previous) / previous) * 100 : current - previous;
  const rounded = kind === 'mean' ? Math.round(delta * 100) / 100 : Math.round(delta * 10) / 10;
  const size =
    kind === 'count'
      ? `${ONE_DECIMAL.format(Math.abs(rounded))}%`
      : kind === 'points'
        ? `${ONE_DECIMAL.format(Math.abs(rounded))} pts`
        : TWO_DECIMALS.format(Math.abs(rounded));
  if (rounded === 0) return { kind, direction: 'same', good: null, text: `±${size}`, words: 'unchanged from the previous period' };
  const direction = rounded > 0 ? 'up' : 'down';
  return {
    kind,
    direction,
    good: (direction === 'up') === upIsGood,
    text: `${direction === 'up' ? '+' : '−'}${size}`,
    words: `${direction} ${size.replace('pts', 'points')} from the previous period`,
  };
}
