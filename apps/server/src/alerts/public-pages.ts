import { html, page } from '../public/html.ts';

const brand = (name: string) => ({ color: '#1c5fd4', logoUrl: null, name });
const PLATFORM = brand('Customer Feedback');

/** An unknown, expired or used link: says so and nothing else (no client, no response). */
export function linkRefusedPage(kind: 'unknown' | 'expired' | 'used'): string {
  const text = {
    unknown: html`<h1>Link not found</h1><p>This link is not valid. Please open it again from the alert you received.</p>`,
    expired: html`<h1>This link has expired</h1><p>Alert links work for 30 days after the alert was sent.</p>`,
    used: html`<h1>Already acknowledged</h1><p>This alert was acknowledged already; nothing more to do.</p>`,
  }[kind];
  return page(kind === 'used' ? 'Already acknowledged' : 'Link not available', PLATFORM, text);
}

export function acknowledgePage(clientName: string, action: string, done: boolean): string {
  const body = done
    ? html`<h1>Alert acknowledged</h1><p>Thank you. Nobody else will be alerted about this response.</p>`
    : html`<h1>Acknowledge this alert</h1><p>Let ${clientName} know you are handling this customer's feedback. Acknowledging stops the alert from being escalated.</p><form method="post" action="${action}"><button type="submit">Acknowledge</button></form>`;
  return page('Acknowledge alert', brand(clientName), body);
}

export function alertUnsubscribePage(
  kind: 'survey' | 'review',
  clientName: string,
  address: string,
  action: string,
  done: boolean,
): string {
  const body = done
    ? html`<h1>You are unsubscribed</h1><p>${address} will not receive ${kind} alerts from ${clientName} any more. An administrator can subscribe you again.</p>`
    : html`<h1>Unsubscribe from alerts</h1><p>Stop ${kind} alerts from ${clientName} to ${address}?</p><form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`;
  return page('Unsubscribe from alerts', brand(clientName), body);
}
