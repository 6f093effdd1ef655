import { count, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../src/config.ts';
import { notificationEvents, smsInboundMessages, smsOptOuts, smsStatusEvents, systemLogs } from '../src/db/schema/index.ts';
import { twilioSignature } from '../src/deliverability/sms/signature.ts';

/** The token and public base URL the tests configure; the provider signs the URL it was given, on this base. */
export const SMS_TOKEN = 'test-sms-auth-token-5e1f';
export const PUBLIC_BASE = 'https://admin.example.com';

export function smsConfig(base: Config): Partial<Config> {
  return { smsAuthToken: SMS_TOKEN, messaging: { ...base.messaging, publicBaseUrl: PUBLIC_BASE } };
}

export type Form = [string, string][];
type PostOptions = { token?: string; signedUrl?: string; signature?: string | null; sentForm?: Form; host?: string };

/**
 * Posts a form as the provider does: signed with the token over PUBLIC_BASE + path and the params.
 * `signedUrl`, `sentForm` and `signature` let a test sign one thing and send another.
 */
export function postSigned(app: FastifyInstance, path: string, form: Form, options: PostOptions = {}): Promise<LightMyRequestResponse> {
  const signature =
    options.signature === undefined
      ? twilioSignature(options.token ?? SMS_TOKEN, options.signedUrl ?? `${PUBLIC_BASE}${path}`, form)
      : options.signature;
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      ...(signature !== null ? { 'x-twilio-signature': signature } : {}),
      // The Host a proxy passes on differs from the public URL; it must not matter.
      host: options.host ?? 'internal-proxy:8080',
    },
    payload: new URLSearchParams(options.sentForm ?? form).toString(),
  });
}

/** How many rows each table this feature writes holds (a refusal must change only `refusals`). */
export type SmsCounts = { statusEvents: number; inbound: number; optOuts: number; timeline: number; refusals: number; optLogs: number };

export async function smsCounts(app: FastifyInstance): Promise<SmsCounts> {
  const db = app.db;
  const n = async (table: typeof smsStatusEvents | typeof smsInboundMessages | typeof smsOptOuts | typeof notificationEvents) =>
    (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return {
    statusEvents: await n(smsStatusEvents),
    inbound: await n(smsInboundMessages),
    optOuts: await n(smsOptOuts),
    timeline: await n(notificationEvents),
    refusals: (await db.select({ n: count() }).from(systemLogs).where(eq(systemLogs.action, 'sms.refused')))[0]?.n ?? 0,
    optLogs: (await db.select({ n: count() }).from(systemLogs).where(eq(systemLogs.entityType, 'sms_opt_out')))[0]?.n ?? 0,
  };
}
