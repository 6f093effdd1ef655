import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  expiredSsoCookie,
  isSignedIn,
  markSignedIn,
  readSsoCookie,
  readToken,
  storeToken,
} from './session-storage.ts';

const user = { id: 1001, name: 'Ada Admin', email: 'admin@example.com', is_superadmin: 1 as const, current_client_id: 1 };

describe('session storage', () => {
  it('stores the token as JSON, with quotes, under the spec key', () => {
    storeToken(sessionStorage, 'abc123');
    expect(sessionStorage.getItem('storage-auth-user-token')).toBe('"abc123"');
  });

  it('removes quote characters before building the bearer header', () => {
    sessionStorage.setItem('storage-auth-user-token', '"ab"c"');
    expect(readToken(sessionStorage)).toBe('abc');
    expect(authorizationHeader(sessionStorage)).toBe('Bearer abc');
  });

  it('sets no header without a stored token', () => {
    expect(authorizationHeader(sessionStorage)).toBeNull();
    sessionStorage.setItem('storage-auth-user-token', '""');
    expect(authorizationHeader(sessionStorage)).toBeNull();
  });

  it('the guard checks only that the signed-in flag is present', () => {
    expect(isSignedIn(sessionStorage)).toBe(false);
    sessionStorage.setItem('storage-auth-user-authenticated', 'anything');
    expect(isSignedIn(sessionStorage)).toBe(true);
  });

  it('marks a sign-in with the flag "true", the token and the user', () => {
    markSignedIn(sessionStorage, 'tok', user);
    expect(sessionStorage.getItem('storage-auth-user-authenticated')).toBe('true');
    expect(sessionStorage.getItem('storage-auth-user-token')).toBe('"tok"');
    expect(JSON.parse(sessionStorage.getItem('storage-auth-user') ?? 'null')).toEqual(user);
  });

  it('reads the ssoToken cookie among others', () => {
    expect(readSsoCookie('a=1; ssoToken=xyz%3D; b=2')).toBe('xyz=');
    expect(readSsoCookie('a=1; ssoTokenX=1')).toBeNull();
    expect(readSsoCookie('ssoToken=')).toBeNull();
  });

  it('expires the cookie with the same name, path and domain', () => {
    expect(expiredSsoCookie(null)).toBe('ssoToken=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(expiredSsoCookie('.example.com')).toBe('ssoToken=; path=/; domain=.example.com; expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });
});
