import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { systemLogs } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { SignatureCheck } from '../../plugins/auth.ts';
import { SMS_INBOUND_PATH, SMS_STATUS_PATH } from './paths.ts';
import { type FormParams, signatureMatches } from './signature.ts';
import { recordInbound, recordStatus } from './store.ts';
import { twiml } from './words.ts';

export type SmsCallbackOptions = {
  /** SMS_AUTH_TOKEN; null refuses every callback (nothing can be verified). */
  authToken: string | null;
  /** The public base URL the provider calls (PUBLIC_BASE_URL), without a trailing slash: the signed URL is rebuilt on it. */
  baseUrl: string;
  now: () => Date;
};

/** Provider form bodies are a few hundred bytes; a long SMS body with media fields stays far below this. */
const MAX_BODY_BYTES = 64 * 1024;
const SID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `POST /api/v1/sms/status` and `POST /api/v1/sms/inbound` (issue 22, item 5): a Twilio-compatible
 * provider's status callbacks and inbound messages, form-encoded and signed with X-Twilio-Signature.
 * Access is `{ signed }` (docs/decisions/058-provider-callbacks-signed.md); the URL signed is rebuilt
 * on the configured public base URL, never on the Host header (docs/decisions/061-sms-callbacks-and-stop.md).
 * The form parser is registered here only: this plugin is encapsulated, so no other route reads forms.
 */
export const smsCallbackRoutes: FastifyPluginAsync<SmsCallbackOptions> = async (app, opts) => {
  const verified = new WeakMap<FastifyRequest, FormParams>();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
    (_request, body, done) => {
      done(null, [...new URLSearchParams(String(body))]);
    },
  );

  const check: SignatureCheck = {
    provider: 'SMS provider',
    async verify(request) {
      if (opts.authToken === null) return 'SMS callback refused: no SMS_AUTH_TOKEN is configured, so no callback can be verified.';
      const params = formOf(request.body);
      if (params === null) return 'SMS callback refused: the body is not a form (application/x-www-form-urlencoded).';
      const signature = request.headers['x-twilio-signature'];
      if (typeof signature !== 'string' || signature === '') return 'SMS callback refused: the X-Twilio-Signature header is missing.';
      if (!signatureMatches(opts.authToken, `${opts.baseUrl}${request.url}`, params, signature)) {
        return 'SMS callback refused: the X-Twilio-Signature does not match this URL and these parameters.';
      }
      verified.set(request, params);
      return null;
    },
    async refused(request, reason) {
      const params = formOf(request.body) ?? [];
      const sid = params.find(([name]) => name === 'MessageSid')?.[1]?.slice(0, 64) ?? '-';
      await app.db.insert(systemLogs).values({
        level: 'warn',
        service: 'api',
        action: 'sms.refused',
        message: `${reason} (${request.routeOptions.url ?? request.url}, MessageSid ${sid})`.slice(0, 2000),
        entityType: 'sms_callback',
        requestId: request.id,
        ip: request.ip,
      });
    },
  };
  const config = { access: { signed: check } };

  app.post(SMS_STATUS_PATH, { bodyLimit: MAX_BODY_BYTES, config }, async (request, reply) => {
    const form = fieldsOf(verified.get(request));
    const sid = required(form, 'MessageSid', 'SmsSid');
    const status = required(form, 'MessageStatus', 'SmsStatus');
    if (!SID.test(sid)) throw fieldError('MessageSid', 'The MessageSid field must be letters, digits, _ or - (at most 64)');
    if (!/^[a-z_]{1,40}$/i.test(status)) throw fieldError('MessageStatus', 'The MessageStatus field must be a status word');
    const errorCode = form.one('ErrorCode')?.trim() || null;
    if (errorCode !== null && !/^\d{1,10}$/.test(errorCode)) throw fieldError('ErrorCode', 'The ErrorCode field must be a number');
    await recordStatus(app.db, { sid, status: status.toLowerCase(), errorCode, raw: form.raw() }, opts.now());
    return reply.code(204).send();
  });

  app.post(SMS_INBOUND_PATH, { bodyLimit: MAX_BODY_BYTES, config }, async (request, reply) => {
    const form = fieldsOf(verified.get(request));
    const sid = required(form, 'MessageSid', 'SmsSid');
    if (!SID.test(sid)) throw fieldError('MessageSid', 'The MessageSid field must be letters, digits, _ or - (at most 64)');
    const from = required(form, 'From').trim();
    if (from.length > 64) throw fieldError('From', 'The From field must be at most 64 characters');
    const to = (form.one('To') ?? '').trim().slice(0, 64);
    const body = (form.one('Body') ?? '').slice(0, 2000);
    const result = await recordInbound(app.db, { sid, from, to, body }, opts.now(), request.id);
    return reply.type('text/xml; charset=utf-8').send(twiml(result.reply));
  });
};

function formOf(body: unknown): FormParams | null {
  if (!Array.isArray(body)) return null;
  const pairs: [string, string][] = [];
  for (const pair of body) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return null;
    pairs.push([pair[0], pair[1]]);
  }
  return pairs;
}

type Fields = { one(name: string): string | undefined; raw(): Record<string, string | string[]> };

function fieldsOf(params: FormParams | undefined): Fields {
  if (!params) throw new HttpError(403, 'SMS callback refused: it was not verified.');
  return {
    one: (name) => params.find(([n]) => n === name)?.[1],
    raw() {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of params) {
        const had = Object.hasOwn(out, name) ? out[name] : undefined;
        out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      }
      return out;
    },
  };
}

/** The first of `names` present and not blank (Twilio sends both MessageSid and the older SmsSid). */
function required(form: Fields, ...names: [string, ...string[]]): string {
  for (const name of names) {
    const value = form.one(name);
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  throw fieldError(names[0], `The ${names[0]} field is required`);
}

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, `${message}.`, { [field]: [message] });
}
