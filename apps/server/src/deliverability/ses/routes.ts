import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { systemLogs } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { SignatureCheck } from '../../plugins/auth.ts';
import { certificateCache, type FetchText, guardedGet } from './certificates.ts';
import { ingestSesEvent } from './ingest.ts';
import { certificateUrlRefusal, readEnvelope, type SnsEnvelope, SUBSCRIBE_URL, signatureHolds } from './sns.ts';

export type SesRoutesOptions = {
  /** SES_SNS_TOPIC_ARNS: the topics accepted; empty refuses every message. */
  topicArns: readonly string[];
  /** Fetches a signing certificate's PEM; default: through the outbound-address guard. Tests inject their own. */
  certificate?: FetchText;
  /** GETs a SubscriptionConfirmation's SubscribeURL; default: through the guard. Tests inject their own. */
  confirm?: FetchText;
  now: () => Date;
};

/** SNS messages are at most 256 KB; the envelope escapes the Message, so twice that with room. */
const MAX_BODY_BYTES = 600 * 1024;

/**
 * `POST /api/v1/ses/events` (issue 22, items 1–2): SES events through an SNS HTTPS subscription.
 * Access is `{ signed }` (docs/decisions/058-provider-callbacks-signed.md): the auth plugin calls the
 * check below once the body is read, and any refusal is a 403 naming why plus one System Logs row.
 * What was verified is kept per request for the handler (a WeakMap: nothing else can set it).
 */
export const sesEventRoutes: FastifyPluginAsync<SesRoutesOptions> = async (app, opts) => {
  const topics = new Set(opts.topicArns);
  const certificateOf = certificateCache(opts.certificate ?? guardedGet);
  const confirm = opts.confirm ?? guardedGet;
  const verified = new WeakMap<FastifyRequest, SnsEnvelope>();

  const check: SignatureCheck = {
    provider: 'Amazon SNS',
    async verify(request) {
      // SNS posts its JSON as text/plain (Fastify's own parser hands it over as a string); JSON is read too.
      let body: unknown = request.body;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body);
        } catch {
          return 'SNS message refused: the body is not JSON.';
        }
      }
      const envelope = readEnvelope(body);
      if (typeof envelope === 'string') return `SNS message refused: ${envelope}.`;
      // Before anything leaves the machine: only an SNS URL is ever fetched.
      const badUrl = certificateUrlRefusal(envelope.SigningCertURL);
      if (badUrl) return `SNS message refused: ${badUrl}.`;
      if (!topics.has(envelope.TopicArn)) return 'SNS message refused: the TopicArn is not one of SES_SNS_TOPIC_ARNS.';
      const certificate = await certificateOf(envelope.SigningCertURL, new Date());
      if (typeof certificate === 'string') return `SNS message refused: ${certificate}.`;
      if (!signatureHolds(envelope, certificate)) return 'SNS message refused: the signature does not match the message.';
      verified.set(request, envelope);
      return null;
    },
    async refused(request, reason) {
      // The envelope's Signature, Token, SubscribeURL and Message are left out: they are the secrets or the data.
      const body = envelopeObject(request.body);
      const said = (key: string) => {
        const v: unknown = Object.hasOwn(body, key) ? (body as Record<string, unknown>)[key] : undefined;
        return typeof v === 'string' ? v.slice(0, 200) : null;
      };
      await app.db.insert(systemLogs).values({
        level: 'warn',
        service: 'api',
        action: 'ses.refused',
        message:
          `${reason} (Type ${said('Type') ?? '-'}, MessageId ${said('MessageId') ?? '-'}, TopicArn ${said('TopicArn') ?? '-'})`.slice(
            0,
            2000,
          ),
        entityType: 'sns_message',
        requestId: request.id,
        ip: request.ip,
      });
    },
  };

  app.post('/api/v1/ses/events', { bodyLimit: MAX_BODY_BYTES, config: { access: { signed: check } } }, async (request) => {
    const envelope = verified.get(request);
    if (!envelope) throw new HttpError(403, 'SNS message refused: it was not verified.');
    if (envelope.Type === 'Notification') {
      let event: unknown;
      try {
        event = JSON.parse(envelope.Message);
      } catch {
        throw new HttpError(400, 'The Message field is not JSON: an SES event was expected.', {
          Message: ['The Message field is not JSON'],
        });
      }
      const result = await ingestSesEvent(app.db, event, { snsMessageId: envelope.MessageId, now: opts.now() });
      return { data: result };
    }
    if (envelope.Type === 'SubscriptionConfirmation') return { data: await confirmSubscription(envelope, request) };
    await log(
      request,
      'info',
      'ses.unsubscribed',
      `SNS unsubscribe confirmation for ${envelope.TopicArn} (MessageId ${envelope.MessageId})`,
    );
    return { data: { confirmed: false } };
  });

  async function confirmSubscription(envelope: SnsEnvelope, request: FastifyRequest): Promise<{ confirmed: boolean }> {
    const url = envelope.SubscribeURL ?? '';
    if (!SUBSCRIBE_URL.test(url)) {
      await log(
        request,
        'warn',
        'ses.refused',
        `SNS subscription for ${envelope.TopicArn} not confirmed: the SubscribeURL is not an SNS URL`,
      );
      throw new HttpError(400, 'The SubscribeURL field is not an SNS URL.', { SubscribeURL: ['The SubscribeURL field is not an SNS URL'] });
    }
    try {
      await confirm(url);
    } catch (err) {
      const why = err instanceof Error ? err.message.slice(0, 300) : 'unknown error';
      await log(request, 'warn', 'ses.subscription', `SNS subscription for ${envelope.TopicArn} not confirmed: ${why}`);
      throw new HttpError(400, `The SubscribeURL could not be called: ${why}.`, {
        SubscribeURL: [`The SubscribeURL could not be called: ${why}`],
      });
    }
    await log(request, 'info', 'ses.subscription', `SNS subscription to ${envelope.TopicArn} confirmed`);
    return { confirmed: true };
  }

  async function log(request: FastifyRequest, level: 'info' | 'warn', action: string, message: string): Promise<void> {
    await app.db
      .insert(systemLogs)
      .values({ level, service: 'api', action, message: message.slice(0, 2000), requestId: request.id, ip: request.ip });
  }
};

/** The request body as an object for the refusal's log line ({} when it is not one). */
function envelopeObject(body: unknown): object {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null ? value : {};
}
