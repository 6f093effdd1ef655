import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.ts';

/**
 * Secrets the server must use again (a feed's SFTP password) are stored encrypted with AES-256-GCM
 * (docs/decisions/029-feed-ingest.md): `v1.<iv>.<tag>.<ciphertext>` in base64url. The key is the
 * SHA-256 of `SECRET_KEY`; without it, a random key is made once and kept in `secret.key` beside
 * the embedded database's directory (mode 0600), or in memory for an in-memory database. On
 * PostgreSQL without `SECRET_KEY` there is no safe place for a key, so nothing can be encrypted.
 */
export type SecretBox = {
  /** Null when the server has no key (PostgreSQL without SECRET_KEY). */
  encrypt(plain: string): string | null;
  decrypt(stored: string): string;
};

function keyOf(config: Pick<Config, 'secretKey' | 'database'>): Buffer | null {
  if (config.secretKey) return createHash('sha256').update(config.secretKey).digest();
  if (config.database.kind !== 'pglite') return null;
  if (config.database.dataDir === null) return randomBytes(32);
  const file = join(dirname(resolve(config.database.dataDir)), 'secret.key');
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
