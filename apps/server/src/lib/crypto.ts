import { createHash, randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

/**
 * How many times the KDF has run in this process. Sign-in must do the same work whether or not
 * the account exists; tests check that through this count instead of timing requests (speed is
 * measured in bench/, never asserted in tests).
 */
export const kdfRuns = { count: 0 };

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  kdfRuns.count += 1;
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * scrypt's cost as log2 N. Production hashes with N=2^15 (r=8, p=1): ≈ 32 MiB and tens of ms per
 * hash, memory-hard, as OWASP advises. PASSWORD_HASH_COST lowers it for test runs only, whose
 * sign-ins would otherwise spend minutes in the KDF (docs/decisions/088-password-hash-cost-in-tests.md).
 */
export const PASSWORD_HASH_COST = 15;
const r = 8;
const p = 1;
const KEYLEN = 32;
const SALT_BYTES = 16;
const MAXMEM = 64 * 1024 * 1024;

export type ParsedHash = { N: number; r: number; p: number; salt: Buffer; hash: Buffer };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads `scrypt$N$r$p$salt$hash`. Null for anything else, including parameters Node would refuse
 * (memory past `maxmem`), so a bad stored value can never turn a sign-in into a 500.
 */
export function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6) return null;
  const [kind, n, rr, pp, salt, hash] = parts;
  if (kind !== 'scrypt' || !salt || !hash || !BASE64URL.test(salt) || !BASE64URL.test(hash)) return null;
  const cost = Number(n);
  const blockSize = Number(rr);
  const parallel = Number(pp);
  const isPowerOfTwo = Number.isInteger(cost) && cost > 1 && (cost & (cost - 1)) === 0;
  if (!isPowerOfTwo || !Number.isInteger(blockSize) || blockSize < 1) return null;
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 16) return null;
  // Node refuses scrypt when 128·N·r comes near maxmem; keep half of it as margin.
  if (128 * cost * blockSize > MAXMEM / 2) return null;
  const saltBytes = Buffer.from(salt, 'base64url');
  const hashBytes = Buffer.from(hash, 'base64url');
  if (saltBytes.length < SALT_BYTES || hashBytes.length < 16) return null;
  return { N: cost, r: blockSize, p: parallel, salt: saltBytes, hash: hashBytes };
}

/** Returns `scrypt$N$r$p$salt$hash` (base64url parts), self-describing so parameters can change later. */
export async function hashPassword(password: string, cost = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const N = 2 ** cost;
  const key = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: MAXMEM });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Always runs the KDF exactly once, even for a malformed stored value (then at `cost` with a
 * throw-away salt), so the answer takes the same time either way.
 */
export async function verifyPassword(password: string, stored: string, cost = PASSWORD_HASH_COST): Promise<boolean> {
  const parsed = parseHash(stored);
  const params = parsed ?? { N: 2 ** cost, r, p, salt: randomBytes(SALT_BYTES), hash: Buffer.alloc(KEYLEN) };
  const key = await scrypt(password, params.salt, params.hash.length, { N: params.N, r: params.r, p: params.p, maxmem: MAXMEM });
  return parsed !== null && timingSafeEqual(key, params.hash);
}

/** The dummy hash of each cost this process has signed in with (one cost per server). */
const dummyHashes = new Map<number, Promise<string>>();

/**
 * A real hash of random bytes at the server's cost, made once per process and cost. Sign-in checks
 * the password against it when the account does not exist or has no password, so those answers
 * cost one full KDF run like a wrong password does and timing does not reveal which e-mails exist.
 * Nobody knows the input, so nothing verifies against it.
 */
export function dummyPasswordHash(cost = PASSWORD_HASH_COST): Promise<string> {
  const made = dummyHashes.get(cost);
  if (made) return made;
  const hash = hashPassword(randomBytes(32).toString('base64url'), cost).catch((err: unknown) => {
    // Let the next caller try again rather than keep a failure for the life of the process.
    dummyHashes.delete(cost);
    throw err;
  });
  dummyHashes.set(cost, hash);
  return hash;
}

/** A session token: 256 random bits, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
