import { reviewSiteLabel } from '../constants.ts';
import { PERFORMANCE_GROUP_BY_LABELS, type PerformanceFigures, type PerformanceGroupBy, type PerformanceRow } from './performance.ts';

/**
 * The Performance Report grouped table's columns (issue 23), in order: one list read by the table, its phone
 * cards, the print view and the CSV, so the CSV is exactly what the table shows — the same
 * columns, the same order, the same text. The server's scheduled report e-mail attaches the same CSV.
 */

/** Which rows a number drills down to: responses in Survey Manager, invitations in Survey Processing. */
export type DrillTarget =
  | { screen: 'manager'; npsClass?: 'promoter' | 'passive' | 'detractor' }
  | { screen: 'processing'; statuses?: readonly string[] };

export type PerformanceColumn = {
  key: string;
  label: string;
  /** What sorting compares (null sorts last either way). */
  value(row: PerformanceRow): number | string | null;
  /** What a person reads, on screen and in the CSV. */
  text(row: PerformanceRow): string;
  drill?: DrillTarget;
};

const EMPTY = '—';
const COUNT = new Intl.NumberFormat('en-US');

export const formatCount = (n: number): string => COUNT.format(n);
/** A percentage of the contract (one decimal already): `42.5%`, `—` when its denominator was 0. */
export const formatPercent = (n: number | null): string => (n === null ? EMPTY : `${n.toFixed(1)}%`);
/** A mean to two decimals (`8.25`). */
export const formatMean = (n: number | null): string => (n === null ? EMPTY : n.toFixed(2));
/** An NPS, −100…100, with a real minus sign. */
export const formatNps = (n: number | null): string => (n === null ? EMPTY : n < 0 ? `−${Math.abs(n)}` : String(n));

type FigureKey = { [K in keyof PerformanceFigures]: PerformanceFigures[K] extends number | null ? K : never }[keyof PerformanceFigures];

const count = (key: FigureKey, label: string, drill?: DrillTarget): PerformanceColumn => ({
  key,
  label,
  value: (r) => r.figures[key],
  text: (r) => {
    const v = r.figures[key];
    return v === null ? EMPTY : formatCount(v);
  },
  ...(drill ? { drill } : {}),
});
const shaped = (key: FigureKey, label: string, format: (n: number | null) => string, drill?: DrillTarget): PerformanceColumn => ({
  key,
  label,
  value: (r) => r.figures[key],
  text: (r) => format(r.figures[key]),
  ...(drill ? { drill } : {}),
});

const MANAGER: DrillTarget = { screen: 'manager' };
/** Statuses an invitation has once delivered, and once opened (its status moves on, never back). */
export const DELIVERED_STATUSES = ['delivered', 'opened', 'responded'] as const;
export const OPENED_STATUSES = ['opened', 'responded'] as const;

/** The sites any row has new reviews on, in a stable order, each a column of its own. */
export function reviewSitesOf(rows: readonly PerformanceRow[]): string[] {
  const sites = new Set<string>();
  for (const r of rows) for (const site of Object.keys(r.figures.newReviewsBySite)) sites.add(site);
  return [...sites].sort((a, b) => reviewSiteLabel(a).localeCompare(reviewSiteLabel(b)));
}

/** Every column for a report grouped by `groupBy` whose rows have reviews on `sites`. */
export function performanceColumns(groupBy: PerformanceGroupBy, sites: readonly string[]): PerformanceColumn[] {
  return [
    { key: 'group', label: PERFORMANCE_GROUP_BY_LABELS[groupBy], value: (r) => r.label, text: (r) => r.label },
    count('sent', 'Sent', { screen: 'processing' }),
    count('delivered', 'Delivered', { screen: 'processing', statuses: DELIVERED_STATUSES }),
    count('opened', 'Opened', { screen: 'processing', statuses: OPENED_STATUSES }),
    count('responses', 'Responses', MANAGER),
    shaped('responseRate', 'Response rate %', formatPercent, MANAGER),
    count('promoters', 'Promoters', { screen: 'manager', npsClass: 'promoter' }),
    count('passives', 'Passives', { screen: 'manager', npsClass: 'passive' }),
    count('detractors', 'Detractors', { screen: 'manager', npsClass: 'detractor' }),
    shaped('nps', 'NPS', formatNps, MANAGER),
    shaped('avgScore', 'Avg score', formatMean, MANAGER),
    shaped('csat', 'CSAT %', formatPercent, MANAGER),
    count('alertsFired', 'Alerts fired'),
    count('alertsUnsent', 'Alerts unsent'),
    count('invites', 'Invites'),
    count('reviewsPosted', 'Reviews posted'),
    shaped('conversion', 'Conversion %', formatPercent),
    count('newReviews', 'New reviews'),
    ...sites.map(
      (site): PerformanceColumn => ({
        key: `site:${site}`,
        label: `New reviews on ${reviewSiteLabel(site)}`,
        value: (r) => r.figures.newReviewsBySite[site] ?? 0,
        text: (r) => formatCount(r.figures.newReviewsBySite[site] ?? 0),
      }),
    ),
    shaped('avgReviewRating', 'Avg review rating', formatMean),
    {
      key: 'npsBand',
      label: 'NPS band',
      // Sorted by the NPS behind the band, so Poor < Average < Good < Excellent.
      value: (r) => r.figures.nps,
      text: (r) => r.figures.npsBand ?? EMPTY,
    },
  ];
}

export type RowSort = { key: string; order: 'asc' | 'desc' };

/** The rows in a column's order; rows without a value (—) stay last whichever way. */
export function sortRows(rows: readonly PerformanceRow[], columns: readonly PerformanceColumn[], sort: RowSort): PerformanceRow[] {
  const column = columns.find((c) => c.key === sort.key);
  if (!column) return [...rows];
  const sign = sort.order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x).localeCompare(String(y), 'en-US', { numeric: true });
  });
}

/** One CSV field, quoted when it must be (RFC 4180), and kept from being read as a formula by a spreadsheet. */
function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV of what the table shows: its header, then each row as the table orders and writes it. */
export function performanceCsv(rows: readonly PerformanceRow[], columns: readonly PerformanceColumn[]): string {
  const lines = [columns.map((c) => csvField(c.label)), ...rows.map((r) => columns.map((c) => csvField(c.text(r))))];
  return `${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}
