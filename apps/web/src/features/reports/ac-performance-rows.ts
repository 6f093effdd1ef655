import type { AcFigures, AcPerformanceReport, AcRisk } from '@admin/shared';
import { SELECTED_ALL } from '@admin/shared/constants';
import { formatCount, formatMean, formatNps, formatPercent } from './performance-columns.ts';
import { addDays, filterErrors, writeFilters } from './performance-query.ts';

/** One line of the table: a coordinator's book, or (expanded) one of its clients. */
export type AcDisplayRow = {
  key: string;
  kind: 'coordinator' | 'client';
  label: string;
  figures: AcFigures;
  /** The book's clients (one for a client line): the drill-down's Clients filter. */
  clientIds: number[];
  /** A client's flags; a book's at-risk clients, by name and reason. */
  risks: AcRisk[];
  expanded: boolean;
};

/** The screen's filters, as the URL and the API's query string name them. */
export type AcFilters = { coordinators: string[]; clients: string[]; from: string; to: string };
export const AC_FILTER_LABELS = { coordinators: 'AC users', clients: 'Clients', from: 'Date from', to: 'Date to' } as const;
export const AC_PATH = '/api/reports/ac-performance';
export const COORDINATOR_OPTIONS_PATH = '/api/reports/ac-performance/options/coordinators';
export const PERFORMANCE_REPORT_ROUTE = '/admin/reports/performance-report';

const EMPTY = '—';
const signed = (n: number | null) => (n === null ? EMPTY : n > 0 ? `+${n}` : formatNps(n));

/** The default range: the last 30 days, today included (the viewer's own day). */
export function last30Days(today: Date): { from: string; to: string } {
  const to = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return { from: addDays(to, -29), to };
}

export function readAcFilters(search: URLSearchParams, today: Date): AcFilters {
  const list = (name: string) =>
    search
      .getAll(name)
      .flatMap((v) => v.split(','))
      .filter((v) => v !== '' && v !== SELECTED_ALL);
  const range = last30Days(today);
  return {
    coordinators: list('coordinators'),
    clients: list('clients'),
    from: search.has('from') ? (search.get('from') ?? '') : range.from,
    to: search.has('to') ? (search.get('to') ?? '') : range.to,
  };
}

export function writeAcFilters(f: AcFilters): URLSearchParams {
  const next = new URLSearchParams();
  for (const v of f.coordinators) next.append('coordinators', v);
  for (const v of f.clients) next.append('clients', v);
  next.set('from', f.from);
  next.set('to', f.to);
  return next;
}

/**
 * What is wrong with the dates, in the server's words (apps/server/src/modules/ac-performance-report/query.ts):
 * the same labels and rule as the Performance Report's (performance-query.ts).
 */
export function acFilterErrors(f: AcFilters): Partial<Record<'from' | 'to', string>> {
  return filterErrors(f);
}

export function acApiQuery(f: AcFilters): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = { from: f.from, to: f.to };
  if (f.coordinators.length > 0) query.coordinators = f.coordinators;
  if (f.clients.length > 0) query.clients = f.clients;
  return query;
}

/** The Performance Report for these clients and this range, by client (its page reads its filters from the URL). */
export function performanceHref(clientIds: readonly number[], f: Pick<AcFilters, 'from' | 'to'>): string {
  const params = writeFilters({
    clients: clientIds.map(String),
    locations: [],
    surveys: [],
    personnel: [],
    from: f.from,
    to: f.to,
    groupBy: 'client',
    channel: 'all',
  });
  return `${PERFORMANCE_REPORT_ROUTE}?${params.toString()}`;
}

/** The lines the table shows: every book, and the clients of each expanded one under it. */
export function displayRows(report: AcPerformanceReport, expanded: ReadonlySet<string>): AcDisplayRow[] {
  const out: AcDisplayRow[] = [];
  for (const book of report.rows) {
    const key = `ac-${book.coordinatorId ?? 'none'}`;
    const open = expanded.has(key);
    out.push({
      key,
      kind: 'coordinator',
      label: book.label,
      figures: book.figures,
      clientIds: book.clients.map((c) => c.id),
      risks: book.clients.flatMap((c) => c.risks.map((r) => ({ kind: r.kind, reason: `${c.name}: ${r.reason}` }))),
      expanded: open,
    });
    if (open)
      for (const c of book.clients)
        out.push({
          key: `${key}-client-${c.id}`,
          kind: 'client',
          label: c.name,
          figures: c.figures,
          clientIds: [c.id],
          risks: c.risks,
          expanded: false,
        });
  }
  return out;
}

/** The table's columns: each the label a person reads and the text a cell (and the CSV) shows. */
export const AC_COLUMNS: readonly { key: string; label: string; text(r: AcDisplayRow): string }[] = [
  { key: 'label', label: 'Account coordinator or client', text: (r) => r.label },
  { key: 'clients', label: 'Clients', text: (r) => formatCount(r.figures.clients) },
  { key: 'activeLocations', label: 'Active locations', text: (r) => formatCount(r.figures.activeLocations) },
  { key: 'sent', label: 'Surveys sent', text: (r) => formatCount(r.figures.sent) },
  { key: 'responseRate', label: 'Response rate', text: (r) => formatPercent(r.figures.responseRate) },
  { key: 'nps', label: 'NPS', text: (r) => formatNps(r.figures.nps) },
  { key: 'npsChange', label: 'Δ NPS', text: (r) => signed(r.figures.npsChange) },
  {
    key: 'invites',
    label: 'Review invites → posted',
    text: (r) => `${formatCount(r.figures.invites)} → ${formatCount(r.figures.reviewsPosted)}`,
  },
  { key: 'newReviews', label: 'New reviews', text: (r) => formatCount(r.figures.newReviews) },
  { key: 'avgReviewRating', label: 'Avg rating', text: (r) => formatMean(r.figures.avgReviewRating) },
  { key: 'alertsUnsent', label: 'Open unsent alerts', text: (r) => formatCount(r.figures.alertsUnsent) },
  { key: 'reviewAlertsUndelivered', label: 'Review alerts undelivered', text: (r) => formatCount(r.figures.reviewAlertsUndelivered) },
  { key: 'listingsAccuracy', label: 'Listings accuracy', text: (r) => formatPercent(r.figures.listingsAccuracy) },
  {
    key: 'risk',
    label: 'Paused or at risk',
    text: (r) =>
      r.kind === 'client'
        ? r.risks.map((x) => x.reason).join('; ') || 'No'
        : `${formatCount(r.figures.pausedOrAtRisk)} of ${formatCount(r.figures.clients)}`,
  },
];

function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV of what the table shows: a Row column (Coordinator or Client), then every column's text. */
export function acCsv(rows: readonly AcDisplayRow[]): string {
  const header = ['Row', ...AC_COLUMNS.map((c) => c.label)];
  const lines = [header, ...rows.map((r) => [r.kind === 'coordinator' ? 'Coordinator' : 'Client', ...AC_COLUMNS.map((c) => c.text(r))])];
  return `${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}
