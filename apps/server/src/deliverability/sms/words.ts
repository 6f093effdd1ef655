import type { NotificationStatus } from '@admin/shared';

/** Twilio's default opt-out keywords, plus REMOVE (reference-second-half.md A4, "STOP handling"). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REMOVE']);
/** Opt back in: START, YES and (toll-free numbers) UNSTOP. */
const START_WORDS = new Set(['START', 'YES', 'UNSTOP']);

export type InboundAction = 'opt_out' | 'opt_in' | 'help' | 'none';

/**
 * What an inbound message asks for. Only a single word counts (trimmed, any case), as the provider
 * itself blocks only on a single-word message: "please stop by Friday" is not an opt-out.
 */
export function inboundActionOf(body: string): { action: InboundAction; keyword: string | null } {
  const word = body.trim().toUpperCase();
  if (STOP_WORDS.has(word)) return { action: 'opt_out', keyword: word };
  if (START_WORDS.has(word)) return { action: 'opt_in', keyword: word };
  if (word === 'HELP' || word === 'INFO') return { action: 'help', keyword: word };
  return { action: 'none', keyword: null };
}

/**
 * Twilio's MessageStatus (reference A4) as a Tracking Logs status (domain.md §22); null for a status
 * that says nothing about an outbound message's progress (receiving/received) or one not known.
 */
export function statusOfTwilio(status: string): NotificationStatus | null {
  switch (status.trim().toLowerCase()) {
    case 'queued':
    case 'accepted':
    case 'scheduled':
      return 'queued';
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
    case 'partially_delivered':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/** `<Response><Message>text</Message></Response>`, the text XML-escaped; an empty `<Response/>` when there is nothing to say. */
export function twiml(message: string | null): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  if (message === null || message.trim() === '') return `${head}<Response></Response>`;
  return `${head}<Response><Message>${xmlEscape(message)}</Message></Response>`;
}

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}
