import { X509Certificate } from 'node:crypto';
import { resolvePublicAddress } from '../../lib/outbound-address.ts';

/** How long an SNS host may take, and how large a certificate (a PEM is ~2 KB) or confirmation answer may be. */
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 64 * 1024;
/** SNS signs with a handful of certificates (one per region and rotation); bounded all the same. */
const MAX_CACHED = 100;

export type FetchText = (url: string) => Promise<string>;

/**
 * GET through the outbound-address guard (docs/decisions/034-outbound-addresses.md): the host must
 * resolve to public addresses only. It goes through global `fetch`, so a browser test's process can
 * preload a module that answers the one certificate URL (apps/web/e2e/fake-sns-certificate.mjs)
 * instead of reaching AWS; the product has no switch for it. No redirects, a timeout, a size cap.
 */
export async function guardedGet(url: string): Promise<string> {
  await resolvePublicAddress(new URL(url).hostname, { allowPrivate: false, subject: 'The SNS host', timeoutMs: TIMEOUT_MS });
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${new URL(url).hostname} answered ${response.status}`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new Error(`${new URL(url).hostname} answered more than ${MAX_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The certificates SNS signs with, by URL, parsed once and kept (least recently used dropped past
 * MAX_CACHED). A fetch in flight is shared, so a burst of messages fetches once. A failed fetch is
 * not kept. Validity dates are checked at every use, so an expired certificate is refused.
 */
export function certificateCache(fetchPem: FetchText, max = MAX_CACHED) {
  const cache = new Map<string, Promise<X509Certificate>>();
  return async (url: string, now: Date): Promise<X509Certificate | string> => {
    let entry = cache.get(url);
    if (entry) {
      cache.delete(url);
      cache.set(url, entry);
    } else {
      entry = fetchPem(url).then((pem) => new X509Certificate(pem));
      cache.set(url, entry);
      entry.catch(() => cache.delete(url));
      while (cache.size > max) {
        const oldest = cache.keys().next().value;
        if (oldest === undefined) break;
        cache.delete(oldest);
      }
    }
    let certificate: X509Certificate;
    try {
      certificate = await entry;
    } catch (err) {
      return `the signing certificate could not be fetched or read (${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'})`;
    }
    if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo))
      return 'the signing certificate is not valid at this time';
    return certificate;
  };
}
