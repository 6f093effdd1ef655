import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from './session-store.ts';
import { useSharedFilters } from './shared-filters.ts';

type Handler = (init: RequestInit | undefined) => { status: number; body?: unknown };

/** A fake server: path → answer, recording every call in order. */
function fakeServer(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; auth: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      const method = init?.method ?? 'GET';
      calls.push({ method, path, auth: ((init?.headers ?? {}) as Record<string, string>).authorization });
      const handler = routes[`${method} ${path}`];
      if (!handler) return new Response(JSON.stringify({ message: 'not found', statusCode: 404 }), { status: 404 });
      const { status, body } = handler(init);
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return calls;
}

const admin = { id: 1001, name: 'Ada Admin', email: 'admin@example.com', is_superadmin: 1, current_client_id: 7 };
const client = { id: 7, name: 'Lakeside Honda' };
const shellRoutes: Record<string, Handler> = {
  'GET /api/client-root-teams': () => ({
    status: 200,
    body: { data: [{ id: 70, name: 'Lakeside Honda', clientId: 7, clientName: 'Lakeside Honda' }] },
  }),
  'GET /api/clients-user-list': () => ({ status: 200, body: { data: [{ id: 2001, name: 'Olivia Garcia' }] } }),
  'GET /api/clients/7': () => ({ status: 200, body: { data: client } }),
};

beforeEach(() => useSession.getState().clearLocal(null));
afterEach(() => vi.unstubAllGlobals());

describe('start-up', () => {
  it('with a stored token: sets the bearer header and loads root teams and the user list, 1000 first', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok"');
    sessionStorage.setItem('storage-auth-user', JSON.stringify(admin));
    const calls = fakeServer(shellRoutes);
    await useSession.getState().startUp();
    expect(calls.map((c) => c.path).sort()).toEqual(['/api/client-root-teams', '/api/clients-user-list']);
    expect(calls.every((c) => c.auth === 'Bearer tok')).toBe(true);
    const s = useSession.getState();
    expect(s.user).toEqual(admin);
    expect(s.rootTeams).toHaveLength(1);
    expect(s.users).toEqual([
      { id: 1000, name: 'Default for New User' },
      { id: 2001, name: 'Olivia Garcia' },
    ]);
  });

  it('without a token: calls nothing', async () => {
    const calls = fakeServer(shellRoutes);
    await useSession.getState().startUp();
    expect(calls).toEqual([]);
    expect(useSession.getState().users).toEqual([{ id: 1000, name: 'Default for New User' }]);
  });

  it('a failed load is logged and shown as an error state, not as an empty list', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok"');
    fakeServer({ ...shellRoutes, 'GET /api/client-root-teams': () => ({ status: 503, body: { message: 'down', statusCode: 503 } }) });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await useSession.getState().startUp();
    expect(useSession.getState().rootTeamsState).toBe('error');
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});

describe('single sign-on', () => {
  it('accepts a super-admin: stores the session, loads the current client and caches it', async () => {
    const calls = fakeServer({ ...shellRoutes, 'GET /api/user': () => ({ status: 200, body: { data: { user: admin } } }) });
    expect(await useSession.getState().completeSignIn('sso-tok')).toBe(true);
    expect(calls[0]).toEqual({ method: 'GET', path: '/api/user', auth: 'Bearer sso-tok' });
    expect(sessionStorage.getItem('storage-auth-user-authenticated')).toBe('true');
    expect(sessionStorage.getItem('storage-auth-user-token')).toBe('"sso-tok"');
    expect(JSON.parse(sessionStorage.getItem('storage-current-client') ?? 'null')).toEqual(client);
    expect(useSession.getState().currentClient).toEqual(client);
  });

  for (const [who, user] of [
    ['a non-super-admin', { ...admin, email: 'staff@example.com', is_superadmin: 0 }],
    ['the retired master', { ...admin, email: 'master@example.com' }],
  ] as const) {
    it(`refuses ${who}: sets the message and clears session storage`, async () => {
      sessionStorage.setItem('something', 'x');
      fakeServer({ 'GET /api/user': () => ({ status: 200, body: { data: { user } } }) });
      expect(await useSession.getState().completeSignIn('tok')).toBe(false);
      expect(useSession.getState().loginFailureMessage).toBe(
        `Note: ${user.email} is no Longer allowed. Please try Again with a different account.`,
      );
      expect(sessionStorage.length).toBe(0);
    });
  }
});

describe('switching client', () => {
  it("calls PUT switch-client, reloads the client and the user list; chosen locations were the other client's", async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok"');
    const calls = fakeServer({
      ...shellRoutes,
      'PUT /api/users/switch-client/7': () => ({ status: 200, body: { data: { ...admin, current_client_id: 7 } } }),
    });
    useSharedFilters.getState().setLocation(['a'.repeat(24)]);
    await useSession.getState().switchClient(7);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /api/users/switch-client/7',
      'GET /api/clients/7',
      'GET /api/clients-user-list',
    ]);
    expect(useSession.getState().currentClient).toEqual(client);
    expect(useSharedFilters.getState().location.value).toEqual([]);
  });
});

describe('a switch in another tab', () => {
  it('is remembered while this tab shows another client, and showing it here forgets it', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok"');
    fakeServer({
      ...shellRoutes,
      'GET /api/clients/9': () => ({ status: 200, body: { data: { id: 9, name: 'Harbor Dental' } } }),
    });
    await useSession.getState().showClient(7);
    // Named by the other tab's announcement, or looked up when only a 409 named it.
    await useSession.getState().noticeSwitch(9);
    expect(useSession.getState().elsewhereClient).toEqual({ id: 9, name: 'Harbor Dental' });
    await useSession.getState().noticeSwitch(7, 'Lakeside Honda');
    expect(useSession.getState().elsewhereClient).toBeNull();
    await useSession.getState().noticeSwitch(9, 'Harbor Dental');
    await useSession.getState().showElsewhereClient();
    expect(useSession.getState().currentClient).toEqual({ id: 9, name: 'Harbor Dental' });
    expect(useSession.getState().elsewhereClient).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('storage-current-client') ?? 'null')).toEqual({ id: 9, name: 'Harbor Dental' });
  });
});

describe('sign-out', () => {
  it('revokes on the server and clears session storage', async () => {
    sessionStorage.setItem('storage-auth-user-token', '"tok"');
    sessionStorage.setItem('storage-auth-user-authenticated', 'true');
    const calls = fakeServer({ 'POST /api/logout': () => ({ status: 204 }) });
    await useSession.getState().signOut();
    expect(calls).toEqual([{ method: 'POST', path: '/api/logout', auth: 'Bearer tok' }]);
    expect(sessionStorage.length).toBe(0);
  });
});
