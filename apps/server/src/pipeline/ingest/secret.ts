import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.ts';

/**
 * Secrets the server must use again (a feed's SFTP password) are stored encrypted with AES-256-GCM
 * (docs/decisions/029-feed-ingest.md): `v1.<iv>.<tag>.<ciphertext>` in base64url. The key is the
 * SHA-256 of `SECRET_KEY`; without it, a random key is made once and kept in `secret.key` inside
 * the embedded database's directory (`DATA_DIR`, mode 0600), or in memory for an in-memory
 * database. On PostgreSQL without `SECRET_KEY` there is no safe place for a key, so nothing can be
 * encrypted.
 */
export type SecretBox = {
  /** Null when the server has no key (PostgreSQL without SECRET_KEY). */
  encrypt(plain: string): string | null;
  decrypt(stored: string): string;
};

/** Where the embedded database's key is kept: inside its directory, so it never lands in a working copy (`./data` → `./data/secret.key`). */
export function secretKeyFile(dataDir: string): string {
  return join(resolve(dataDir), 'secret.key');
}

/**
 * Versions before this one kept the key beside the data directory (`./data` → `./secret.key`, the
 * repository root under `npm start`), and the database's passwords are encrypted with it, so it
 * moves inside. When another embedded database beside this one has no key of its own, it may be
 * using the same old file, which is then copied rather than moved.
 */
function moveOldKey(dataDir: string, file: string): void {
  const own = resolve(dataDir);
  const parent = dirname(own);
  const old = join(parent, 'secret.key');
  if (existsSync(file) || !existsSync(old)) return;
  mkdirSync(own, { recursive: true });
  const shared = readdirSync(parent, { withFileTypes: true }).some((entry) => {
    const dir = join(parent, entry.name);
    return entry.isDirectory() && dir !== own && existsSync(join(dir, 'PG_VERSION')) && !existsSync(join(dir, 'secret.key'));
  });
  try {
    if (shared) copyFileSync(old, file, constants.COPYFILE_EXCL);
    else renameSync(old, file);
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? err.code : undefined;
    // Another process moved or copied it first.
    if (code === 'ENOENT' || code === 'EEXIST') return;
    if (code !== 'EXDEV') throw err;
    // DATA_DIR is a mount of its own: copy, then remove the old one.
    copyFileSync(old, file, constants.COPYFILE_EXCL);
    unlinkSync(old);
  }
}

function keyOf(config: Pick<Config, 'secretKey' | 'database'>): Buffer | null {
  if (config.secretKey) return createHash('sha256').update(config.secretKey).digest();
  if (config.database.kind !== 'pglite') return null;
  if (config.database.dataDir === null) return randomBytes(32);
  const file = secretKeyFile(config.database.dataDir);
  moveOldKey(config.database.dataDir, file);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process made it first: read theirs.
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) throw err;
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

export function secretBox(config: Pick<Config, 'secretKey' | 'database'>): SecretBox {
  const key = keyOf(config);
  return {
    encrypt(plain) {
      if (!key) return null;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split('.');
      if (!key || version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('The stored secret cannot be read with this server’s key');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
