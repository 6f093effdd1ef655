import type { OutboundMessage } from '../messaging/send.ts';
import { withUnsubscribe } from './unsubscribe.ts';

/** What an alert message says about its response (or unanswered invitation). */
export type AlertFacts = {
  clientId: number;
  clientName: string;
  locationId: string | null;
  locationName: string | null;
  surveyName: string;
  score: number | null;
  comment: string | null;
  firstName: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  responseId: number | null;
  ruleName: string;
  /** An unanswered invitation (`no_response_days`): what the message is about instead of a response. */
  unansweredDays: number | null;
};

type Links = { response: string | null; acknowledge: string; unsubscribe: string };

/**
 * The alert as a person reads it: who answered what, where, and the two links that matter (the
 * response in the console, the acknowledge link that stops escalation). Plain text: it reads the
 * same in a mail client and in an SMS.
 */
export function alertMessage(
  facts: AlertFacts,
  channel: 'email' | 'sms',
  to: string,
  links: Links,
  options: { test: boolean; eventId: number },
): OutboundMessage {
  const place = facts.locationName ?? 'all locations';
  const what =
    facts.unansweredDays !== null
      ? `no response after ${facts.unansweredDays} days`
      : facts.score !== null
        ? `score ${facts.score}`
        : 'new response';
  const subject = `${options.test ? '[Test] ' : ''}Survey alert: ${what} at ${facts.clientName}, ${place}`;
  const contact = [facts.customerEmail, facts.customerPhone].filter((v): v is string => Boolean(v)).join(', ');
  const common = {
    type: 'survey_alert' as const,
    to,
    clientId: facts.clientId,
    locationId: facts.locationId,
    related: { type: 'survey_alert_event', id: options.eventId },
  };
  if (channel === 'sms') {
    const text = `${options.test ? '[Test] ' : ''}${facts.clientName}, ${place}: ${what} on ${facts.surveyName}. Acknowledge: ${links.acknowledge}`;
    return { ...common, channel: 'sms', template: 'Survey alert', text };
  }
  const lines = [
    `Rule: ${facts.ruleName}`,
    `Client: ${facts.clientName}`,
    `Location: ${place}`,
    `Survey: ${facts.surveyName}`,
    `Score: ${facts.score ?? '—'}`,
    `Comment: ${facts.comment ?? '—'}`,
    `Customer: ${facts.firstName ?? '—'}${contact ? ` (${contact})` : ''}`,
    '',
    ...(links.response ? [`Open the response: ${links.response}`] : []),
    `Acknowledge this alert: ${links.acknowledge}`,
  ];
  return { ...common, channel: 'email', subject, ...withUnsubscribe(lines, links.unsubscribe) };
}
