import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// The transports' counterparts on this machine: an SMTP server (smtp-server) that nodemailer
// delivers to, and an HTTP server answering as a Twilio-compatible Messages API would.

export type Received = { from: string; to: string[]; raw: string };
export type SmsRequest = { path: string; authorization: string | undefined; form: URLSearchParams };

/** The SMTP server refuses this recipient with 550. */
export const REFUSED_ADDRESS = 'nobody@refused.example';
/**
 * Mail to this domain is answered as SES's SMTP interface answers, `250 Ok <message-id>` (the id
 * its events carry); other mail gets smtp-server's own `250 OK: message queued`.
 */
export const SES_STYLE_DOMAIN = 'ses-smtp.example';

/** The SMS API refuses this number with its error 21211. */
export const BAD_PHONE = '+15555550999';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Both listeners and what each has received so far (the arrays are emptied by the tests). */
export type Listeners = {
  smtpPort: number;
  httpPort: number;
  mails: Received[];
  /** The ids answered SES-style (mail to SES_STYLE_DOMAIN), in order. */
  sesIds: string[];
  smsRequests: SmsRequest[];
  close(): Promise<void>;
};

export async function openListeners(): Promise<Listeners> {
  const mails: Received[] = [];
  const sesIds: string[] = [];
  const smsRequests: SmsRequest[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === REFUSED_ADDRESS) {
        callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        if (session.envelope.rcptTo.some((r) => r.address.endsWith(`@${SES_STYLE_DOMAIN}`))) {
          const id = `0100018c${String(mails.length).padStart(8, '0')}-5a1e0d4b-ses-000000`;
          sesIds.push(id);
          callback(null, `Ok ${id}`);
          return;
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const http = createServer((request, response) => {
    void readBody(request).then((body) => {
      const form = new URLSearchParams(body);
      smsRequests.push({ path: request.url ?? '', authorization: request.headers.authorization, form });
      response.setHeader('content-type', 'application/json');
      if (form.get('To') === BAD_PHONE) {
        response.statusCode = 400;
        response.end(JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 }));
        return;
      }
      response.statusCode = 201;
      response.end(JSON.stringify({ sid: `SM${smsRequests.length.toString().padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as AddressInfo).port;
  return {
    smtpPort,
    httpPort,
    mails,
    sesIds,
    smsRequests,
    async close() {
      await new Promise<void>((resolve) => smtp.close(resolve));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
