import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, queryString, setClientMismatchHandler, setUnauthorizedHandler } from './http.ts';

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body === undefined ? null : JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => undefined);
  setClientMismatchHandler(null);
  sessionStorage.clear();
});

describe('the HTTP client', () => {
  it('leaves empty values out of query strings', () => {
    expect(queryString({ site: 'Google', clientId: 3, q: '', x: null, y: undefined, location: ['a', '', 'b'] })).toBe(
      '?site=Google&clientId=3&location=a&location=b',
    );
    expect(queryString({ q: '' })).toBe('');
  });

  it('sends the stored token as a bearer header, quotes removed', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok-1"');
    const fetch = mockFetch(200, { data: [] });
    await api.get('/api/client-root-teams');
    const init = fetch.mock.calls[0]?.[1];
    expect(((init?.headers ?? {}) as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(init?.signal).toBeUndefined(); // no timeout (docs/overview.md, The shell)
  });

  it('sends no authorization header without a stored token', async () => {
    const fetch = mockFetch(200, { data: [] });
    await api.get('/api/x');
    expect(((fetch.mock.calls[0]?.[1]?.headers ?? {}) as Record<string, string>).authorization).toBeUndefined();
  });

  it('throws the error envelope and reports a 401 on a signed-in call', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok-1"');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch(401, { message: 'Sign-in required.', statusCode: 401 });
    const err = await api.get('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).message).toBe('Sign-in required.');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not treat a failed sign-in (no token yet) as a lost session', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch(401, { message: 'Invalid email or password.', statusCode: 401 });
    await expect(api.post('/api/login', { email: 'a@b.co', password: 'x' })).rejects.toThrow('Invalid email or password.');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a network failure into a readable error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, message: expect.stringContaining('could not be reached') });
  });

  it('names the client this tab shows on every call, unless told to name none', async () => {
    sessionStorage.setItem('storage-current-client', JSON.stringify({ id: 7, name: 'Lakeside' }));
    const fetch = mockFetch(200, { data: [] });
    await api.post('/api/product', { name: 'x' });
    await api.get('/api/clients/9', { clientId: null });
    const headersOf = (i: number) => (fetch.mock.calls[i]?.[1]?.headers ?? {}) as Record<string, string>;
    expect(headersOf(0)['x-client-id']).toBe('7');
    expect(headersOf(1)['x-client-id']).toBeUndefined();
  });

  it("reports the server's current client when it refuses the tab's (409)", async () => {
    const onMismatch = vi.fn();
    setClientMismatchHandler(onMismatch);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ message: 'This tab shows A, but…', statusCode: 409 }), {
            status: 409,
            headers: { 'x-current-client-id': '12' },
          }),
      ),
    );
    await expect(api.post('/api/product', {})).rejects.toMatchObject({ status: 409 });
    expect(onMismatch).toHaveBeenCalledWith(12);
  });
});
