import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GoogleConnectionButton } from './google-connection.tsx';

/**
 * The Google connection dialog (issue 21, item 1) on its own, the server answered by a stub of
 * `fetch` that keeps the connection: the pull said to be off without an OAuth client, the
 * refresh token sent once and afterwards shown only as stored, each location's mapping saved.
 */
type Call = { method: string; path: string; body: unknown };

function server() {
  const calls: Call[] = [];
  let connection: { account: string } | null = null;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const path = new URL(url, 'http://console').pathname;
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : null;
    calls.push({ method, path, body });
    if (path === '/api/reviews/google' && method === 'GET') {
      return json({
        data: {
          enabled: false,
          connection: connection && {
            ...connection,
            refresh_token: 'stored',
            status: 'active',
            last_error: null,
            updated_at: '2026-11-26T10:00:00.000Z',
          },
        },
      });
    }
    if (path === '/api/reviews/google' && method === 'PUT') {
      if (!connection && !body.refresh_token) {
        return json(
          {
            statusCode: 422,
            message: 'Please correct: Refresh token.',
            errors: { refresh_token: ['The Refresh token field is required'] },
          },
          422,
        );
      }
      connection = { account: body.account };
      return json({ data: { account: body.account } });
    }
    if (path === '/api/reviews/google/locations') {
      return json({
        data: [
          {
            location_id: 'a'.repeat(24),
            location_name: 'Main Street',
            google_location: null,
            last_pulled_at: null,
            next_pull_at: null,
            last_error: null,
            reviews_seen: 0,
          },
        ],
        nextCursor: null,
        zone: 'America/Chicago',
      });
    }
    if (path.startsWith('/api/reviews/google/locations/') && method === 'PUT') return json({ data: body });
    return json({ statusCode: 404, message: 'Not found.' }, 404);
  });
  return { calls, fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('GoogleConnectionButton', () => {
  it('says the pull is off, asks for the token once, then shows it only as stored; maps a location', async () => {
    const { calls, fetch } = server();
    vi.stubGlobal('fetch', fetch);
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <GoogleConnectionButton />
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Google connection' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('The Google review pull is off')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Account/), { target: { value: 'accounts/42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save connection' }));
    expect(await within(dialog).findByText('The Refresh token field is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Refresh token/), { target: { value: 'secret-token' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Disconnect' })).toBeTruthy());
    const token = within(dialog).getByLabelText(/^Refresh token/) as HTMLInputElement;
    expect(token.value).toBe('');
    expect(token.placeholder).toBe('stored');
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/api/reviews/google').map((c) => c.body)).toEqual([
      { account: 'accounts/42' },
      { account: 'accounts/42', refresh_token: 'secret-token' },
    ]);

    const mapping = await within(dialog).findByLabelText('Google location of Main Street');
    fireEvent.change(mapping, { target: { value: 'locations/7' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'PUT' && c.path === `/api/reviews/google/locations/${'a'.repeat(24)}`)).toBe(true),
    );
    expect(calls.find((c) => c.method === 'PUT' && c.path.endsWith('a'.repeat(24)))?.body).toEqual({ google_location: 'locations/7' });
  });
});
