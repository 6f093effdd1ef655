import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { twilioSignature } from '../../server/src/deliverability/sms/signature.ts';
import { type Listeners, openListeners } from '../../server/test/messaging-listeners.ts';
import { type SnsSigner, snsSigner, TEST_TOPIC_ARN } from '../../server/test/sns-signer.ts';

/**
 * What issue 22's browser test runs against (deliverability-flow.spec.ts): its own server process
 * with the demo data; e-mail over SMTP to the test listener (apps/server/test/messaging-listeners.ts),
 * which answers mail to its SES-style domain as SES's SMTP interface does (`250 Ok <id>`); SMS to the
 * listener's Twilio-compatible API; SNS messages signed with a test certificate the server trusts
 * only through apps/web/e2e/fake-sns-certificate.mjs; inbound SMS signed with the server's token.
 */

export const SERVER_PORT = 3344;
export const ORIGIN = `http://127.0.0.1:${SERVER_PORT}`;
const SMS_TOKEN = 'deliverability-flow-token';
const ROOT = join(import.meta.dirname, '..', '..', '..');

export type Harness = {
  listeners: Listeners;
  /** Posts a signed SNS Notification carrying an SES event about `messageId`, sent to `to`; answers the HTTP status. */
  postSesEvent(messageId: string, to: string, eventType: string, part: string, body: Record<string, unknown>): Promise<number>;
  /** Posts a signed inbound SMS from `from`, as the provider does; answers the HTTP status. */
  postInboundSms(from: string, body: string): Promise<number>;
  close(): Promise<void>;
};

async function waitForHealth(server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}): ${output()}`);
    const ok = await fetch(`${ORIGIN}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /healthz: ${output()}`);
}

export async function openHarness(): Promise<Harness> {
  const listeners = await openListeners();
  const signer: SnsSigner = snsSigner();
  let output = '';
  const server = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: `--import ${join(ROOT, 'apps/web/e2e/fake-sns-certificate.mjs')}`,
      SNS_TEST_CERT_FILE: signer.certFile,
      PORT: String(SERVER_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'deliverability-flow-')),
      DEMO_DATA: 'on',
      // As playwright.config.ts: the lowest hash cost for the demo accounts' sign-ins (decision 088).
      PASSWORD_HASH_COST: '10',
      LOG_LEVEL: 'warn',
      CLOCK_CONTROL: 'on',
      PUBLIC_BASE_URL: ORIGIN,
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${listeners.smtpPort}`,
      SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN,
      SMS_TRANSPORT: 'http',
      SMS_API_URL: `http://127.0.0.1:${listeners.httpPort}/2010-04-01`,
      SMS_ACCOUNT_SID: 'AC00000000000000000000000000000001',
      SMS_AUTH_TOKEN: SMS_TOKEN,
      SMS_FROM: '+15005550006',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = `${output}${chunk.toString('utf8')}`.slice(-4000);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  await waitForHealth(server, () => output);

  const mail = (messageId: string, to: string) => ({
    timestamp: new Date().toISOString(),
    source: 'surveys@example.com',
    messageId,
    destination: [to],
    commonHeaders: { to: [to], subject: 'Survey' },
  });
  return {
    listeners,
    async postSesEvent(messageId, to, eventType, part, body) {
      const envelope = signer.notification({
        eventType,
        mail: mail(messageId, to),
        [part]: { timestamp: new Date().toISOString(), ...body },
      });
      const response = await fetch(`${ORIGIN}/api/v1/ses/events`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
        body: JSON.stringify(envelope),
      });
      return response.status;
    },
    async postInboundSms(from, body) {
      const path = '/api/v1/sms/inbound';
      const form: [string, string][] = [
        ['MessageSid', `SM${randomUUID().replace(/-/g, '')}`],
        ['AccountSid', 'AC00000000000000000000000000000001'],
        ['From', from],
        ['To', '+15005550006'],
        ['Body', body],
      ];
      const response = await fetch(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
          'x-twilio-signature': twilioSignature(SMS_TOKEN, `${ORIGIN}${path}`, form),
        },
        body: new URLSearchParams(form).toString(),
      });
      return response.status;
    },
    async close() {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
      await listeners.close();
    },
  };
}
