import { createVerify, type X509Certificate } from 'node:crypto';

/**
 * An SNS message's signature, exactly as AWS specifies it (docs/decisions/059-ses-events-and-suppression.md):
 * the canonical string is `Name\nValue\n` for each signed field in byte order, SignatureVersion 1
 * is RSA-SHA1 and 2 is RSA-SHA256, and the certificate must come from an SNS host.
 */

export type SnsEnvelope = {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
};

const NOTIFICATION_KEYS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const SUBSCRIPTION_KEYS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;
export const SNS_TYPES = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'] as const;

/** The only certificate URLs trusted: an SNS host over HTTPS, a `.pem` path, no userinfo, query or fragment. */
export const SIGNING_CERT_URL = /^https:\/\/sns\.[a-z0-9-]{3,}\.amazonaws\.com(\.cn)?\/[A-Za-z0-9-]+\.pem$/;
/** A SubscribeURL: the same hosts; its query carries the action, topic and token. */
export const SUBSCRIBE_URL = /^https:\/\/sns\.[a-z0-9-]{3,}\.amazonaws\.com(\.cn)?\/\?[A-Za-z0-9=&%:._-]+$/;

/** The envelope's string fields, or the name of the first missing one. */
export function readEnvelope(body: unknown): SnsEnvelope | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not an SNS message (a JSON object)';
  const get = (key: string): string | undefined => {
    const v: unknown = Object.hasOwn(body, key) ? (body as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' ? v : undefined;
  };
  const type = get('Type');
  if (type === undefined || !(SNS_TYPES as readonly string[]).includes(type)) return 'the Type field is not an SNS message type';
  const required = ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'];
  if (type !== 'Notification') required.push('SubscribeURL', 'Token');
  const missing = required.find((k) => get(k) === undefined);
  if (missing) return `the ${missing} field is missing`;
  const envelope: SnsEnvelope = {
    Type: type,
    MessageId: get('MessageId') ?? '',
    TopicArn: get('TopicArn') ?? '',
    Message: get('Message') ?? '',
    Timestamp: get('Timestamp') ?? '',
    SignatureVersion: get('SignatureVersion') ?? '',
    Signature: get('Signature') ?? '',
    SigningCertURL: get('SigningCertURL') ?? '',
  };
  for (const key of ['Subject', 'SubscribeURL', 'Token'] as const) {
    const v = get(key);
    if (v !== undefined) envelope[key] = v;
  }
  return envelope;
}

/** The string SNS signed for this message. */
export function canonicalString(e: SnsEnvelope): string {
  const keys = e.Type === 'Notification' ? NOTIFICATION_KEYS : SUBSCRIPTION_KEYS;
  let out = '';
  for (const key of keys) {
    const value = e[key];
    if (value === undefined) continue;
    out += `${key}\n${value}\n`;
  }
  return out;
}

const ALGORITHM: Record<string, string> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

/** Whether the signature holds (the certificate already fetched from the trusted URL and in date). */
export function signatureHolds(e: SnsEnvelope, certificate: X509Certificate): boolean {
  const algorithm = ALGORITHM[e.SignatureVersion];
  if (!algorithm) return false;
  try {
    return createVerify(algorithm).update(canonicalString(e), 'utf8').verify(certificate.publicKey, e.Signature, 'base64');
  } catch {
    return false;
  }
}

/** Why the certificate URL is not trusted, or null. Checked before any outbound call. */
export function certificateUrlRefusal(url: string): string | null {
  if (!SIGNING_CERT_URL.test(url)) return 'the SigningCertURL is not an SNS certificate URL';
  const parsed = new URL(url);
  if (parsed.username || parsed.password || parsed.search || parsed.hash) return 'the SigningCertURL is not an SNS certificate URL';
  return null;
}
