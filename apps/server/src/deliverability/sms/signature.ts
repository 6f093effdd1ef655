import { createHmac, timingSafeEqual } from 'node:crypto';

/** A form body's parameters in the order received; a name may repeat. */
export type FormParams = readonly (readonly [string, string])[];

/**
 * Twilio's request signature (docs/decisions/061-sms-callbacks-and-stop.md): the full URL called,
 * then every POST parameter sorted by name as name+value with no separators (a repeated name: its
 * values deduplicated and sorted, each appended as name+value), HMAC-SHA1 keyed by the auth token,
 * base64. Sorting is JavaScript's default (UTF-16 code units), as twilio-node sorts.
 */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of params) {
    const values = byName.get(name) ?? new Set<string>();
    values.add(value);
    byName.set(name, values);
  }
  let data = url;
  for (const name of [...byName.keys()].sort()) {
    for (const value of [...(byName.get(name) ?? [])].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };

/**
 * The URL as written, with the scheme's default port added and with it removed: twilio-node accepts
 * either, "since signature generation on the back end is inconsistent" (reference A4).
 */
export function urlVariants(url: string): string[] {
  const m = /^(https?):\/\/([^/?#:@]+|\[[^\]/?#]+\])(?::(\d+))?(.*)$/i.exec(url);
  if (!m) return [url];
  const [, scheme = '', host = '', port, rest = ''] = m;
  const fallback = DEFAULT_PORT[scheme.toLowerCase()];
  const variants = new Set([url]);
  if (port === undefined && fallback) variants.add(`${scheme}://${host}:${fallback}${rest}`);
  if (port !== undefined && port === fallback) variants.add(`${scheme}://${host}${rest}`);
  return [...variants];
}

/** Whether `signature` (the X-Twilio-Signature header) is the token's over the URL (either port form) and params; constant-time. */
export function signatureMatches(authToken: string, url: string, params: FormParams, signature: string): boolean {
  const given = Buffer.from(signature, 'utf8');
  let ok = false;
  for (const candidate of urlVariants(url)) {
    const expected = Buffer.from(twilioSignature(authToken, candidate, params), 'utf8');
    // Every variant is computed and compared, so the time taken says nothing about which matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}
