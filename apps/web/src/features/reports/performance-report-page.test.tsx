import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PerformanceReportPage from './performance-report-page.tsx';
import { report, row } from './performance-test-data.ts';

/**
 * The screen against a stub of `fetch` answering the contract (packages/shared/src/reports/
 * performance.ts); the browser test (apps/web/e2e/performance-report.spec.ts) drives the real API.
 */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ROWS = [
  row('aaaaaaaaaaaaaaaaaaaaaaaa', 'North', { sent: 50, promoters: 4, passives: 1, detractors: 0 }),
  row('bbbbbbbbbbbbbbbbbbbbbbbb', 'South', { sent: 900, promoters: 1, passives: 1, detractors: 8 }),
];

function serve(answer: () => Response) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url, 'http://localhost');
      calls.push(u);
      if (u.pathname.includes('/options/')) return json(200, { data: [], more: false });
      return answer();
    }),
  );
  return calls;
}

function show(search: string) {
  const router = createMemoryRouter(
    [
      { path: '/admin/reports/performance-report', element: <PerformanceReportPage />, handle: { label: 'Performance Report' } },
      { path: '/admin/survey-manager', element: <p>Survey Manager here</p> },
    ],
    { initialEntries: [`/admin/reports/performance-report${search}`] },
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

/** The table once its rows are in (its loading rows are hidden from the accessibility tree). */
async function table() {
  const found = await screen.findByRole('table', { name: 'Performance by group' });
  await waitFor(() => expect(within(found).getAllByRole('row').length).toBeGreaterThan(1));
  return found;
}
const firstCells = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]?.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('Performance Report screen', () => {
  it('asks for the URL’s filters and shows the cards with their change and the table', async () => {
    const calls = serve(() => json(200, { data: report(ROWS) }));
    show('?clients=3&from=2026-10-01&to=2026-10-31&groupBy=location&channel=email');
    expect(await firstCells()).toEqual(['North', 'South']);
    const asked = calls.find((u) => u.pathname.endsWith('/api/reports/performance'));
    expect(asked?.searchParams.getAll('clients')).toEqual(['3']);
    expect(asked?.searchParams.get('channel')).toBe('email');
    const sent = screen.getByRole('group', { name: 'Sent' });
    expect(sent.textContent).toContain('200');
    expect(sent.textContent).toContain('up 25.0% from the previous period');
    expect(screen.getByText('Oct 1, 2026 – Oct 31, 2026, compared with the previous period (Aug 31, 2026 – Sep 30, 2026).')).toBeTruthy();
  });

  it('drills from a number to the rows behind it in Survey Manager', async () => {
    serve(() => json(200, { data: report(ROWS) }));
    const router = show('?clients=3&from=2026-10-01&to=2026-10-31&groupBy=location');
    await table();
    const link = screen.getByRole('link', { name: 'Promoters of South: 1, open the rows in Survey Manager' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://x');
    expect(href.pathname).toBe('/admin/survey-manager');
    expect(href.searchParams.getAll('location')).toEqual(['bbbbbbbbbbbbbbbbbbbbbbbb']);
    expect(href.searchParams.get('class')).toBe('promoter');
    fireEvent.click(link);
    await screen.findByText('Survey Manager here');
    expect(router.state.location.search).toContain('client=3');
  });

  it('drills from a card’s number too, with the report’s filters', async () => {
    serve(() => json(200, { data: report(ROWS) }));
    show('?clients=3&from=2026-10-01&to=2026-10-31&groupBy=location');
    await table();
    const link = screen.getByRole('link', { name: 'Responses: 55, open the rows in Survey Manager' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://x');
    expect([...href.searchParams.getAll('client'), href.searchParams.get('startDate'), href.searchParams.get('endDate')]).toEqual([
      '3',
      '2026-10-01',
      '2026-10-31',
    ]);
    expect(href.searchParams.getAll('location')).toEqual([]);
    // Figures no list holds (alerts, reviews) are not links.
    expect(within(screen.getByRole('group', { name: 'New public reviews' })).queryByRole('link')).toBeNull();
  });

  it('prints two tables that each start with the group, and charts of a fixed size', async () => {
    serve(() => json(200, { data: report(ROWS) }));
    show('?from=2026-10-01&to=2026-10-31&groupBy=location&view=print');
    const surveys = await screen.findByRole('table', { name: 'Surveys' });
    const others = screen.getByRole('table', { name: 'Scores, alerts and reviews' });
    const heads = (t: HTMLElement) =>
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent);
    expect(heads(surveys)).toEqual([
      'Location',
      'Sent',
      'Delivered',
      'Opened',
      'Responses',
      'Response rate %',
      'Promoters',
      'Passives',
      'Detractors',
      'NPS',
    ]);
    expect(heads(others)[0]).toBe('Location');
    expect(heads(others)).toContain('NPS band');
    // Every column of the screen's table is on paper once (the group in both).
    expect(heads(surveys).length + heads(others).length - 1).toBe(22);
    expect(document.querySelectorAll('.recharts-responsive-container')).toHaveLength(0);
    expect([...document.querySelectorAll('.recharts-wrapper > svg')].map((svg) => svg.getAttribute('width'))).toEqual(['680', '680']);
    expect(screen.getByText('Locations: Selected All')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Performance Report' })).toBeTruthy();
  });

  it('sorts by a column and keeps the sort in the URL', async () => {
    serve(() => json(200, { data: report(ROWS) }));
    const router = show('?from=2026-10-01&to=2026-10-31&groupBy=location');
    await table();
    fireEvent.click(within(await table()).getByRole('button', { name: /^Sent/ }));
    await waitFor(async () => expect(await firstCells()).toEqual(['North', 'South']));
    fireEvent.click(within(await table()).getByRole('button', { name: /^Sent/ }));
    await waitFor(async () => expect(await firstCells()).toEqual(['South', 'North']));
    expect(new URLSearchParams(router.state.location.search).get('order')).toBe('desc');
  });

  it('exports the table as shown', async () => {
    serve(() => json(200, { data: report(ROWS) }));
    const blobs: Blob[] = [];
    // jsdom has no object URLs; the file the browser would save is the Blob handed to one.
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:report';
    };
    URL.revokeObjectURL = () => undefined;
    show('?from=2026-10-01&to=2026-10-31&groupBy=location&sort=sent&order=desc');
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const text = await blobs[0]?.text();
    const lines = (text ?? '')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]?.startsWith('Location,Sent,Delivered,Opened,Responses,')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['South', 'North']);
  });

  it('says which field is wrong, and does not ask the server while the dates are wrong', async () => {
    const calls = serve(() => json(200, { data: report(ROWS) }));
    show('?from=2026-10-31&to=2026-10-01');
    expect(await screen.findByText('The Date to field must be on or after the Date from')).toBeTruthy();
    expect(calls.some((u) => u.pathname.endsWith('/api/reports/performance'))).toBe(false);
  });

  it('shows the server’s 422 naming the field', async () => {
    serve(() =>
      json(422, { statusCode: 422, message: 'Invalid', errors: { clients: ['The Clients field has a client that does not exist'] } }),
    );
    show('?clients=999&from=2026-10-01&to=2026-10-31');
    expect(await screen.findByText('The Clients field has a client that does not exist')).toBeTruthy();
  });

  it('says when there is nothing to chart', async () => {
    serve(() => json(200, { data: report([], { series: { bucket: 'day', current: [] } }) }));
    show('?from=2026-10-01&to=2026-10-31');
    expect(await screen.findByText(/No responses in this period, so the charts have nothing to show/)).toBeTruthy();
    expect(await screen.findByText('Nothing was sent or answered in this period for these filters.')).toBeTruthy();
  });
});
