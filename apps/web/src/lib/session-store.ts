import type { Client, RootTeam, User, UserListEntry } from '@admin/shared';
import { DEFAULT_USER_ENTRY, loginRejectionMessage, STORAGE_KEYS } from '@admin/shared/constants';
import { create } from 'zustand';
import { announceSwitch } from './client-sync.ts';
import { ApiError, api } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';
import {
  expiredSsoCookie,
  markSignedIn,
  readStoredClient,
  readStoredUser,
  readToken,
  storeCurrentClient,
  writeDocumentCookie,
} from './session-storage.ts';
import { useSharedFilters } from './shared-filters.ts';

export type LoadState = 'idle' | 'loading' | 'error' | 'ready';

type SessionState = {
  token: string | null;
  user: User | null;
  /** The user picked in a user list (`GET /api/get-user/{id}`). */
  activeUser: User | null;
  currentClient: Client | null;
  /**
   * The user's current client on the server when another tab or window switched it away from the
   * one this tab shows; this tab's calls are then refused (409) until the user chooses.
   */
  elsewhereClient: { id: number; name: string } | null;
  rootTeams: RootTeam[];
  rootTeamsState: LoadState;
  /** The current client's users, with "Default for New User" (id 1000) first. */
  users: UserListEntry[];
  usersState: LoadState;
  loginFailureMessage: string | null;
  loading: boolean;

  startUp(): Promise<void>;
  loadRootTeams(): Promise<void>;
  loadUsers(): Promise<void>;
  loadActiveUser(id: number): Promise<void>;
  signIn(email: string, password: string): Promise<boolean>;
  completeSignIn(token: string, typedEmail?: string): Promise<boolean>;
  switchClient(clientId: number): Promise<void>;
  /** Another tab switched to `clientId` (its announcement, or a 409 naming it): remember it unless this tab shows it. */
  noticeSwitch(clientId: number, clientName?: string): Promise<void>;
  /** Shows in this tab the client another tab switched to (the server's current one already). */
  showElsewhereClient(): Promise<void>;
  /** This tab shows `clientId` (already the server's current one): stored, its users loaded. */
  showClient(clientId: number): Promise<void>;
  signOut(): Promise<void>;
  /** Forgets the session in this tab (after a 401 or a refused sign-in). */
  clearLocal(message?: string | null): void;
};

const storage = () => window.sessionStorage;

/** Logs a failed load to the console (docs/overview.md, The shell). */
function logFailure(what: string, err: unknown): void {
  console.error(`Failed to load ${what}`, err);
}

/**
 * The session: who is signed in, the current client and their lists (docs/overview.md, Signing in
 * and The shell). Screens read it with
 * `useSession(s => s.currentClient)`.
 */
/** The signed-out state: where the store starts and what signing out returns to. */
const signedOut = {
  token: null,
  user: null,
  activeUser: null,
  currentClient: null,
  elsewhereClient: null,
  rootTeams: [],
  rootTeamsState: 'idle',
  users: [DEFAULT_USER_ENTRY],
  usersState: 'idle',
  loading: false,
} satisfies Partial<SessionState>;

export const useSession = create<SessionState>()((set, get) => ({
  ...signedOut,
  loginFailureMessage: null,

  async startUp() {
    // Start-up (docs/overview.md, The shell): root teams, the stored token and user, the user list.
    const token = readToken(storage());
    if (!token) return;
    set({ token, user: readStoredUser(storage()), currentClient: readStoredClient(storage()) });
    await Promise.all([get().loadRootTeams(), get().loadUsers()]);
  },

  async loadRootTeams() {
    set({ rootTeamsState: 'loading' });
    try {
      const { data } = await api.get<{ data: RootTeam[] }>('/api/client-root-teams');
      set({ rootTeams: data, rootTeamsState: 'ready' });
    } catch (err) {
      logFailure('client root teams', err);
      set({ rootTeamsState: 'error' });
    }
  },

  async loadUsers() {
    set({ usersState: 'loading' });
    try {
      const { data } = await api.get<{ data: UserListEntry[] }>('/api/clients-user-list');
      set({ users: [DEFAULT_USER_ENTRY, ...data.filter((u) => u.id !== DEFAULT_USER_ENTRY.id)], usersState: 'ready' });
    } catch (err) {
      logFailure('user list', err);
      set({ usersState: 'error' });
    }
  },

  async loadActiveUser(id) {
    try {
      const { data } = await api.get<{ data: User }>(`/api/get-user/${id}`);
      set({ activeUser: data });
    } catch (err) {
      logFailure('user', err);
    }
  },

  async signIn(email, password) {
    set({ loading: true, loginFailureMessage: null });
    try {
      const { data } = await api.post<{ data: { token: string } }>('/api/login', { email, password }, { host: 'identity' });
      return await get().completeSignIn(data.token, email);
    } catch (err) {
      set({ loading: false });
      if (err instanceof ApiError && err.status === 403) get().clearLocal(err.message);
      throw err;
    }
  },

  async completeSignIn(token, typedEmail) {
    set({ loading: true, loginFailureMessage: null });
    try {
      const { data } = await api.get<{ data: { user: User } }>('/api/user', { host: 'identity', token });
      const user = data.user;
      if (user.is_superadmin !== 1 || user.email.toLowerCase() === runtimeConfig().retiredMasterEmail) {
        get().clearLocal(loginRejectionMessage(user.email));
        return false;
      }
      markSignedIn(storage(), token, user);
      set({ token, user });
      if (user.current_client_id !== null) {
        const { data: client } = await api.get<{ data: Client }>(`/api/clients/${user.current_client_id}`, { clientId: null });
        storeCurrentClient(storage(), client);
        set({ currentClient: client });
      }
      // After the current client, its users are loaded (docs/overview.md, The shell); location
      // pickers ask the server for their options as the user types (GET /api/endpoints/options).
      await Promise.all([get().loadRootTeams(), get().loadUsers()]);
      set({ loading: false });
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) {
        get().clearLocal(typedEmail ? loginRejectionMessage(typedEmail) : err.message);
        return false;
      }
      if (err instanceof ApiError && err.status === 401) writeDocumentCookie(expiredSsoCookie(runtimeConfig().cookieDomain));
      set({ loading: false });
      throw err;
    }
  },

  async switchClient(clientId) {
    const { data: user } = await api.put<{ data: User }>(`/api/users/switch-client/${clientId}`);
    storage().setItem(STORAGE_KEYS.user, JSON.stringify(user));
    set({ user });
    await get().showClient(clientId);
    announceSwitch({ userId: user.id, clientId, clientName: get().currentClient?.name ?? '' });
  },

  async noticeSwitch(clientId, clientName) {
    if (get().currentClient?.id === clientId) {
      set({ elsewhereClient: null });
      return;
    }
    let name = clientName;
    if (name === undefined) {
      // Read by id, naming no client: the tab is asking what the current one is.
      name = await api.get<{ data: Client }>(`/api/clients/${clientId}`, { clientId: null }).then(
        (r) => r.data.name,
        () => `client ${clientId}`,
      );
    }
    set({ elsewhereClient: { id: clientId, name } });
  },

  async showElsewhereClient() {
    const elsewhere = get().elsewhereClient;
    if (elsewhere) await get().showClient(elsewhere.id);
  },

  async showClient(clientId) {
    const { data: client } = await api.get<{ data: Client }>(`/api/clients/${clientId}`, { clientId: null });
    storeCurrentClient(storage(), client);
    set({ currentClient: client, elsewhereClient: null });
    useSharedFilters.getState().forgetClientLocations();
    await get().loadUsers();
  },

  async signOut() {
    const token = get().token ?? readToken(storage());
    // Revoke server-side; sign out locally even if the server cannot be reached.
    await api
      .post('/api/logout', undefined, { host: 'identity', ...(token ? { token } : {}) })
      .catch((err: unknown) => logFailure('sign-out', err));
    get().clearLocal(null);
  },

  clearLocal(message = null) {
    storage().clear();
    writeDocumentCookie(expiredSsoCookie(runtimeConfig().cookieDomain));
    set({ ...signedOut, loginFailureMessage: message });
    useSharedFilters.getState().reset();
  },
}));
