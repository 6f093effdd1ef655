import { describe, expect, it } from 'vitest';
import { returnPath, returnState } from './return-to.ts';

describe('returnPath', () => {
  it('returns the page asked for, with its query and hash', () => {
    expect(returnPath(returnState({ pathname: '/admin/personnel', search: '?q=ethan', hash: '#top' }))).toBe(
      '/admin/personnel?q=ethan#top',
    );
  });

  it('falls back to / for nothing, other origins and the login page itself', () => {
    expect(returnPath(null)).toBe('/');
    expect(returnPath({})).toBe('/');
    expect(returnPath({ from: { pathname: '//evil.example.com/x' } })).toBe('/');
    expect(returnPath({ from: { pathname: '/\\evil.example.com' } })).toBe('/');
    expect(returnPath({ from: { pathname: 'https://evil.example.com/' } })).toBe('/');
    expect(returnPath({ from: { pathname: '/login' } })).toBe('/');
    expect(returnPath({ from: { pathname: 42 } })).toBe('/');
  });
});
