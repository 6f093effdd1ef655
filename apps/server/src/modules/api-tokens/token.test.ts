import { describe, expect, it } from 'vitest';
import { ipAllowed, plainIp } from '../../lib/ip-allow.ts';
import { checksumOf, isWellFormedToken, newApiToken, storedParts, TOKEN_LENGTH } from './token.ts';

describe('API token format', () => {
  it('is rp_ + 40 base62 + a 6-character checksum of the body', () => {
    const token = newApiToken();
    expect(token).toMatch(/^rp_[0-9A-Za-z]{46}$/);
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(token.slice(-6)).toBe(checksumOf(token.slice(3, 43)));
    expect(isWellFormedToken(token)).toBe(true);
  });

  it('draws a new body every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, newApiToken));
    expect(tokens.size).toBe(200);
  });

  it('refuses a typo, a wrong prefix or length, and a session token, before any lookup', () => {
    const token = newApiToken();
    const flipped = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedToken(flipped)).toBe(false);
    expect(isWellFormedToken(`gh${token.slice(2)}`)).toBe(false);
    expect(isWellFormedToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedToken(`${token}x`)).toBe(false);
    expect(isWellFormedToken('x'.repeat(43))).toBe(false);
  });

  it('pads a small checksum to 6 characters', () => {
    expect(checksumOf('')).toBe('000000');
    for (let i = 0; i < 50; i++) expect(checksumOf(newApiToken())).toHaveLength(6);
  });

  it('stores the SHA-256 hex, the prefix (rp_ + 4) and the last 4 only', () => {
    const token = newApiToken();
    const parts = storedParts(token);
    expect(parts.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(parts.prefix).toBe(token.slice(0, 7));
    expect(parts.last4).toBe(token.slice(-4));
    expect(Object.values(parts).join('')).not.toContain(token.slice(7, 40));
  });
});

describe('allowed IPs', () => {
  it('allows every address when the list is empty', () => {
    expect(ipAllowed('198.51.100.1', [])).toBe(true);
  });
  it('matches addresses and CIDR ranges of IPv4 and IPv6, and IPv4-mapped IPv6 callers', () => {
    const list = ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'];
    expect(ipAllowed('203.0.113.7', list)).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.7', list)).toBe(true);
    expect(ipAllowed('198.51.100.200', list)).toBe(true);
    expect(ipAllowed('2001:db8:1::5', list)).toBe(true);
    expect(ipAllowed('203.0.113.8', list)).toBe(false);
    expect(ipAllowed('2001:db9::1', list)).toBe(false);
    expect(ipAllowed('not-an-ip', list)).toBe(false);
    expect(plainIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });
});
