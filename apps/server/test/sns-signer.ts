import { execFileSync } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalString, type SnsEnvelope } from '../src/deliverability/ses/sns.ts';

/**
 * Signs SNS messages as AWS does, with a key and self-signed certificate made here by openssl
 * (reference-second-half.md A2's offline recipe), for API tests, the bench and browser tests:
 * the certificate is served by an injected fetcher (BuildOptions.snsCertificate) or, in a browser
 * test's server process, by apps/web/e2e/fake-sns-certificate.mjs reading `certFile`.
 */

export const TEST_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:ses-events';
export const TEST_CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem';

export type SnsSigner = {
  certificatePem: string;
  /** Where the PEM was written (for SNS_TEST_CERT_FILE). */
  certFile: string;
  /** A fetcher answering TEST_CERT_URL with the certificate; any other URL throws. `calls` lists the URLs asked. */
  fetcher: ((url: string) => Promise<string>) & { calls: string[] };
  /** A signed Notification carrying `message` (an SES event object, or a string sent as is). */
  notification(message: unknown, options?: SignOptions): SnsEnvelope;
  /** A signed SubscriptionConfirmation or UnsubscribeConfirmation. */
  subscription(type: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation', options?: SignOptions): SnsEnvelope;
  /** Signs an envelope as given (after a test changed it, or with another version). */
  sign(envelope: Omit<SnsEnvelope, 'Signature'>): SnsEnvelope;
};

export type SignOptions = { version?: '1' | '2'; topicArn?: string; certUrl?: string; subject?: string; messageId?: string };

const made = new Map<string, { key: string; cert: string; dir: string }>();

/**
 * The key and certificate in `dir` (made there by openssl when absent, valid for a year), or in a
 * temporary folder per process. A browser test shares one `dir` between the Playwright process that
 * signs and the server it starts (`SNS_TEST_CERT_FILE` = `${dir}/cert.pem`): call this from the
 * Playwright config before the server starts, and `snsSigner(dir)` in the test.
 */
export function snsTestKey(dir?: string): { key: string; cert: string; dir: string; certFile: string } {
  const where = dir ?? made.get('')?.dir ?? mkdtempSync(join(tmpdir(), 'sns-signer-'));
  const keyFile = join(where, 'key.pem');
  const certFile = join(where, 'cert.pem');
  const known = made.get(where);
  if (known) return { ...known, certFile };
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    mkdirSync(where, { recursive: true });
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '365',
        '-subj',
        '/CN=sns.amazonaws.com',
      ],
      { stdio: 'ignore' },
    );
  }
  const entry = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), dir: where };
  made.set(where, entry);
  if (dir === undefined) made.set('', entry);
  return { ...entry, certFile };
}

/** Signs with the key in `dir` (see snsTestKey), else this process's own. */
export function snsSigner(dir?: string): SnsSigner {
  const { key, cert, certFile } = snsTestKey(dir);
  const calls: string[] = [];
  const fetcher = Object.assign(
    async (url: string) => {
      calls.push(url);
      if (url !== TEST_CERT_URL) throw new Error(`no certificate at ${url}`);
      return cert;
    },
    { calls },
  );
  const sign = (envelope: Omit<SnsEnvelope, 'Signature'>): SnsEnvelope => {
    const algorithm = envelope.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
    const unsigned: SnsEnvelope = { ...envelope, Signature: '' };
    return { ...unsigned, Signature: createSign(algorithm).update(canonicalString(unsigned), 'utf8').sign(key, 'base64') };
  };
  const common = (o: SignOptions) => ({
    MessageId: o.messageId ?? randomUUID(),
    TopicArn: o.topicArn ?? TEST_TOPIC_ARN,
    Timestamp: new Date().toISOString(),
    SignatureVersion: o.version ?? '2',
    SigningCertURL: o.certUrl ?? TEST_CERT_URL,
  });
  return {
    certificatePem: cert,
    certFile,
    fetcher,
    sign,
    notification: (message, o = {}) =>
      sign({
        Type: 'Notification',
        ...common(o),
        Message: typeof message === 'string' ? message : JSON.stringify(message),
        ...(o.subject !== undefined ? { Subject: o.subject } : {}),
      }),
    subscription: (type, o = {}) => {
      const token = randomUUID().replace(/-/g, '');
      const topic = o.topicArn ?? TEST_TOPIC_ARN;
      return sign({
        Type: type,
        ...common(o),
        Message: `You have chosen to ${type === 'SubscriptionConfirmation' ? 'subscribe to' : 'unsubscribe from'} the topic ${topic}.`,
        Token: token,
        SubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topic)}&Token=${token}`,
      });
    },
  };
}
