import type { Client, User } from '@admin/shared';
import { SSO_COOKIE, STORAGE_KEYS } from '@admin/shared/constants';

/**
 * The per-tab session kept in `sessionStorage` (docs/overview.md, Signing in). Functions take the storage as an
 * argument so they are tested without a browser.
 */

/** The token as stored: `JSON.stringify(token)`, i.e. with quotes. */
export function storeToken(storage: Storage, token: string): void {
  storage.setItem(STORAGE_KEYS.token, JSON.stringify(token));
}

/** The stored token with quote characters removed (docs/overview.md, Signing in), or null when none is stored. */
export function readToken(storage: Storage): string | null {
  const raw = storage.getItem(STORAGE_KEYS.token);
  if (raw === null) return null;
  const token = raw.replace(/"/g, '');
  return token === '' ? null : token;
}

/** `Bearer <token>` for the stored token; null means no header is set. */
export function authorizationHeader(storage: Storage): string | null {
  const token = readToken(storage);
  return token ? `Bearer ${token}` : null;
}

/** The route guard's whole test: is the signed-in flag present? (docs/overview.md, Signing in) */
export function isSignedIn(storage: Storage): boolean {
  return storage.getItem(STORAGE_KEYS.authenticated) !== null;
}

export function markSignedIn(storage: Storage, token: string, user: User): void {
  storeToken(storage, token);
  storage.setItem(STORAGE_KEYS.authenticated, 'true');
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

export function readJson<T>(storage: Storage, key: string): T | null {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export const readStoredUser = (storage: Storage) => readJson<User>(storage, STORAGE_KEYS.user);
export const readStoredClient = (storage: Storage) => readJson<Client>(storage, STORAGE_KEYS.currentClient);

export function storeCurrentClient(storage: Storage, client: Client): void {
  storage.setItem(STORAGE_KEYS.currentClient, JSON.stringify(client));
}

/** Reads the single-sign-on cookie from `document.cookie`-style text. */
export function readSsoCookie(cookieText: string): string | null {
  for (const part of cookieText.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SSO_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return value === '' ? null : value;
    }
  }
  return null;
}

/**
 * The cookie assignment that expires `ssoToken`: same name, domain and path, expiry in the past
 * (docs/overview.md, Signing in: sign-out).
 */
export function expiredSsoCookie(domain: string | null): string {
  const scope = domain ? `; domain=${domain}` : '';
  return `${SSO_COOKIE}=; path=/${scope}; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * Writes a cookie assignment. Sign-out works on `document.cookie` (the ssoToken
 * cookie is shared with the provider's other apps), and the Cookie Store API is not in every
 * browser the staff use.
 */
export function writeDocumentCookie(assignment: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see the comment above
  document.cookie = assignment;
}
