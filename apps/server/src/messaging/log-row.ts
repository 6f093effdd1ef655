import type { NotificationStatus } from '@admin/shared';
import type { OutboundMessage } from './send.ts';

/** Longest error text kept: a provider's answer can be a whole page. */
const MAX_ERROR = 1000;

/** What a NotificationLog row shows of its message: the subject (or SMS template) and the body. */
export function contentOf(message: OutboundMessage) {
  return {
    subjectOrTemplate: message.channel === 'email' ? message.subject : message.template,
    bodyText: message.text,
    bodyHtml: message.channel === 'email' ? (message.html ?? null) : null,
  };
}

/** The NotificationLog row of a message as first written (`send` and `sendMany`). */
export function logRowOf(message: OutboundMessage, to: string, status: NotificationStatus, refusal: string | null, at: Date) {
  return {
    clientId: message.clientId ?? null,
    locationId: message.locationId ?? null,
    channel: message.channel,
    type: message.type,
    recipient: to,
    ...contentOf(message),
    status,
    relatedType: message.related?.type ?? null,
    relatedId: message.related ? String(message.related.id) : null,
    error: refusal,
    createdAt: at,
    updatedAt: at,
  };
}

/** The provider's own words: an SMTP reply (`550 5.1.1 …`), an API's error, or the network's (`ECONNREFUSED`). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err).slice(0, MAX_ERROR);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`.slice(0, MAX_ERROR);
}
