import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { resolvePublicAddress } from '../lib/outbound-address.ts';

/**
 * The listing adapters' one way out (docs/decisions/034-outbound-addresses.md): the provider's host
 * is resolved and checked first, and the connection goes to the address checked (a `lookup` that
 * answers it), so a name cannot point elsewhere between check and connect. Each try has a timeout;
 * 429 and 5xx answers are tried again after a back-off (Retry-After when the provider says).
 */

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export type ProviderRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Whether the provider may be on the server's own network (`PROVIDERS_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** How the messages name the provider ("Google Places"). */
  provider: string;
  timeoutMs?: number;
  /** Tries in all (1 = no retry). */
  attempts?: number;
  /** The first back-off; doubled at each retry. */
  backoffMs?: number;
};

const MAX_BODY = 5_000_000;
const MAX_WAIT_MS = 10_000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One try: the status, the Retry-After seconds, and the body parsed as JSON (null when empty). */
async function once(req: ProviderRequest, address: string): Promise<{ status: number; retryAfter: number | null; json: unknown }> {
  const url = new URL(req.url);
  const family = isIP(address);
  const lookup: LookupFunction = (_host, options, callback) => {
    // Node asks with `all: true` for happy-eyeballs; answer the one checked address either way.
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: req.method,
        lookup,
        timeout: req.timeoutMs ?? 10_000,
        headers: { accept: 'application/json', ...req.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY) request.destroy(new ProviderError(`${req.provider} answered more than ${MAX_BODY} bytes.`, null));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const seconds = Number(response.headers['retry-after']);
          let json: unknown = null;
          try {
            json = text === '' ? null : JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: response.statusCode ?? 0, retryAfter: Number.isFinite(seconds) ? seconds : null, json });
        });
      },
    );
    request.on('timeout', () =>
      request.destroy(new ProviderError(`${req.provider} did not answer within ${(req.timeoutMs ?? 10_000) / 1000} s.`, null)),
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * The provider's JSON answer to a request, or a `ProviderError` saying why not: an address the
 * server may not reach, a timeout, or a 4xx (404 answers null: nothing there).
 */
export async function providerJson(req: ProviderRequest): Promise<unknown> {
  const host = new URL(req.url).hostname;
  const address = await resolvePublicAddress(host, {
    allowPrivate: req.allowPrivate,
    subject: `The ${req.provider} host`,
    setting: 'PROVIDERS_ALLOW_PRIVATE',
  });
  const attempts = req.attempts ?? 3;
  let delay = req.backoffMs ?? 500;
  let last: ProviderError = new ProviderError(`${req.provider} did not answer.`, null);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let retryAfter: number | null = null;
    try {
      const answer = await once(req, address);
      if (answer.status >= 200 && answer.status < 300) return answer.json;
      if (answer.status === 404) return null;
      last = new ProviderError(`${req.provider} answered ${answer.status}.`, answer.status);
      if (answer.status !== 429 && answer.status < 500) throw last;
      retryAfter = answer.retryAfter;
    } catch (err) {
      if (err instanceof ProviderError && err.status !== null && err.status !== 429 && err.status < 500) throw err;
      if (err instanceof ProviderError) last = err;
      else last = new ProviderError(`${req.provider} could not be reached: ${err instanceof Error ? err.message : String(err)}`, null);
    }
    if (attempt < attempts) {
      await wait(Math.min(MAX_WAIT_MS, retryAfter !== null ? retryAfter * 1000 : delay));
      delay *= 2;
    }
  }
  throw last;
}
