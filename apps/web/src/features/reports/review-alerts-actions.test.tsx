import type { ReviewAlertReportRow } from '@admin/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReviewAlertRowActions } from './review-alerts-actions.tsx';
import { ReviewAlertCards } from './review-alerts-cards.tsx';

/** The row actions and cards against a stub of `fetch`; the browser test drives the real API. */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serve(answer: (url: URL, init?: RequestInit) => Response) {
  const calls: { url: URL; method: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://localhost');
      calls.push({ url: u, method: init?.method ?? 'GET' });
      return answer(u, init);
    }),
  );
  return calls;
}

const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>{node}</MantineProvider>
    </QueryClientProvider>,
  );

const row: ReviewAlertReportRow = {
  id: 41,
  review_id: 7,
  review_created_at: '2024-03-02T12:00:00Z',
  client_id: 1,
  client_name: 'Acme',
  client_timezone: 'America/Chicago',
  location_name: 'North',
  site: 'google',
  rating: 1,
  reviewer: 'Ann',
  excerpt: 'Bad',
  url: 'https://reviews.example/7',
  rule_name: 'Negative',
  channel: 'email',
  recipient: 'owner@acme.example',
  sent_at: null,
  delivery_status: 'failed',
  reason: 'provider_error',
  replied_at: null,
  hours_to_reply: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('Review Alerts Report row actions', () => {
  it('opens the review in a new tab and resends a failed alert only after its confirmation', async () => {
    const calls = serve(() => json(200, { data: { id: 41, status: 'pending', reason: null } }));
    const onResent = vi.fn(async () => undefined);
    wrap(<ReviewAlertRowActions row={row} onResent={onResent} />);
    const link = screen.getByRole('link', { name: 'Open the review by Ann' });
    expect(link.getAttribute('href')).toBe('https://reviews.example/7');
    expect(link.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Resend the alert for Ann to owner@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend failed alert?' });
    expect(within(dialog).getByText(/failed \(provider error or timeout\)/)).toBeTruthy();
    expect(calls).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resend alert' }));
    await waitFor(() => expect(onResent).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['POST /api/reports/review-alerts/41/resend']);
  });

  it('shows the refusal in the dialog and offers no Resend for a delivery that did not fail', async () => {
    serve(() => json(409, { statusCode: 409, message: 'Only a failed alert can be resent: this one is pending.' }));
    const { unmount } = wrap(<ReviewAlertRowActions row={row} onResent={async () => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: /Resend the alert/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resend alert' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Only a failed alert can be resent/);
    unmount();
    wrap(<ReviewAlertRowActions row={{ ...row, delivery_status: 'sent', url: null }} onResent={async () => undefined} />);
    expect(screen.queryByRole('button', { name: /Resend/ })).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('Review Alerts Report cards', () => {
  it('asks for the cards with the list filters and shows each figure by its label', async () => {
    const calls = serve(() =>
      json(200, {
        data: { reviews_alerted: 12, negative_alerted: 5, delivery_failures: 2, negative_replied_48h_pct: 40, median_hours_to_reply: 6.5 },
      }),
    );
    wrap(<ReviewAlertCards exportQuery={{ client: ['3'], startDate: '2024-03-01', columns: ['rating'] }} />);
    const region = screen.getByRole('region', { name: 'Review alert cards' });
    await waitFor(() => expect(within(region).getByRole('group', { name: 'Reviews alerted' }).textContent).toContain('12'));
    expect(within(region).getByRole('group', { name: '% negative replied within 48 h' }).textContent).toContain('40.0%');
    expect(within(region).getByRole('group', { name: 'Median time to reply' }).textContent).toContain('6.5 h');
    const asked = calls[0]?.url;
    expect(asked?.pathname).toBe('/api/reports/review-alerts/cards');
    expect(asked?.searchParams.get('startDate')).toBe('2024-03-01');
    expect(asked?.searchParams.has('columns')).toBe(false);
  });
});
