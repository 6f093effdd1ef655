import type { ReputationItem } from '@admin/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReputationRowActions } from './reputation-panel-actions.tsx';

/**
 * Resend invite on one Reputation Panel row (issue 21, finishing list item 5): it asks first (a
 * customer gets one reminder, ever), Cancel sends nothing, a refusal shows the server's reason in
 * the dialog. The server is a stub of `fetch`; the browser test
 * (apps/web/e2e/reputation-panel-actions.spec.ts) runs the same on the panel.
 */
const row: ReputationItem = {
  id: 41,
  client_id: 1,
  client_timezone: 'America/Chicago',
  invited_at: '2026-11-20T15:00:00.000Z',
  location_id: 'a'.repeat(24),
  location_name: 'North',
  personnel_id: null,
  personnel_name: null,
  customer_name: 'Jamie Rivera',
  survey_score: 10,
  site: 'google',
  channel: 'email',
  clicked_at: null,
  reminder_sent_at: null,
  review_id: null,
  review_detected_at: null,
  review_rating: null,
  review_recommend: null,
  review_excerpt: null,
  review_url: null,
  match_confidence: null,
  suggested_review_id: null,
  suggested_confidence: null,
  status: 'invited',
  status_reason: null,
};

function show(item: ReputationItem, onChanged: () => void) {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <ReputationRowActions row={item} onChanged={onChanged} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

async function openResend() {
  fireEvent.click(screen.getByRole('button', { name: 'More actions for Jamie Rivera' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Resend invite' }));
  return screen.findByRole('dialog', { name: 'Send a review reminder?' });
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('Resend invite', () => {
  it('asks first: Cancel sends nothing', async () => {
    const fetch = vi.fn(async () => json(200, { data: { id: 41 } }));
    vi.stubGlobal('fetch', fetch);
    const changed = vi.fn();
    show(row, changed);
    const dialog = await openResend();
    expect(dialog.textContent).toContain('Jamie Rivera gets one reminder by e-mail');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch).not.toHaveBeenCalled();
    expect(changed).not.toHaveBeenCalled();
  });

  it('Send reminder posts once and reloads the list', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push(`${init.method} ${url}`);
        return json(200, { data: { id: 41 } });
      }),
    );
    const changed = vi.fn();
    show(row, changed);
    const dialog = await openResend();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send reminder' }));
    await waitFor(() => expect(changed).toHaveBeenCalledOnce());
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^POST .*\/api\/v1\/reputation\/41\/resend$/);
  });

  it("shows the server's reason for a refusal in the dialog and sends nothing more from it", async () => {
    const reason = 'A reminder was already sent (Nov 20, 2026, 9:00 AM CST); only one is sent.';
    const fetch = vi.fn(async () => json(409, { message: reason }));
    vi.stubGlobal('fetch', fetch);
    const changed = vi.fn();
    show(row, changed);
    const dialog = await openResend();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send reminder' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Resend invite refused');
    expect(alert.textContent).toContain(reason);
    expect((within(dialog).getByRole('button', { name: 'Send reminder' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fetch).toHaveBeenCalledOnce();
    expect(changed).not.toHaveBeenCalled();
  });

  it('is not offered once a reminder went out', async () => {
    show({ ...row, reminder_sent_at: '2026-11-21T15:00:00.000Z' }, vi.fn());
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Jamie Rivera' }));
    const item = await screen.findByRole('menuitem', { name: 'Resend invite' });
    expect(item.hasAttribute('disabled') || item.getAttribute('aria-disabled') === 'true').toBe(true);
  });
});
