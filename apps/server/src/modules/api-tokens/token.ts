import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sha256Hex } from '../../lib/crypto.ts';

/**
 * The API token format (domain: API Token Generation, after GitHub's `ghp_` tokens): `rp_`, 40
 * random base62 characters (≈ 238 bits), then a 6-character checksum: the CRC32 of the body in
 * base62, left-padded with `0`. A scanner (or our auth) recognises a token, and refuses a typo,
 * without a database lookup.
 */
export const TOKEN_PREFIX = 'rp_';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_LENGTH = TOKEN_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(n: number, width: number): string {
  let out = '';
  let rest = n;
  while (rest > 0) {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/** The checksum of a token's random body (CRC32 < 62^6, so 6 characters always hold it). */
export function checksumOf(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** A new token: the crypto RNG's characters, each uniform over base62 (`randomInt` has no modulo bias). */
export function newApiToken(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i += 1) body += BASE62.charAt(randomInt(62));
  return `${TOKEN_PREFIX}${body}${checksumOf(body)}`;
}

/** Whether text is shaped like one of our tokens and its checksum matches. */
export function isWellFormedToken(token: string): boolean {
  if (!SHAPE.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + BODY_LENGTH);
  return token.slice(-CHECKSUM_LENGTH) === checksumOf(body);
}

/** What is stored of a token: its SHA-256 (hex), and the prefix and last 4 that show it on screen. */
export function storedParts(token: string): { tokenHash: string; prefix: string; last4: string } {
  return { tokenHash: sha256Hex(token), prefix: token.slice(0, TOKEN_PREFIX.length + 4), last4: token.slice(-4) };
}
