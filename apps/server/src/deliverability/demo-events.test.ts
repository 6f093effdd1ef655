import { describe, expect, it } from 'vitest';
import { DEMO_FATE_SHARES, type DemoFate, demoFate, demoSesEvents } from './demo-events.ts';
import { parseSesEvent } from './ses/parse.ts';

const SENT = new Date('2026-01-10T12:00:00Z');
const message = (recipient: string, n = 1) => ({
  providerMessageId: `outbox-0000-${n}`,
  recipient,
  source: 'demo@example.com',
  subject: 'How did we do?',
  sentAt: SENT,
});
const LATER = new Date('2026-02-10T12:00:00Z');
/** The first address of the form `person<n>@example.com` whose fate is `fate`. */
const addressWith = (fate: DemoFate) => {
  for (let n = 0; n < 100_000; n++) if (demoFate(`person${n}@example.com`) === fate) return `person${n}@example.com`;
  throw new Error(`no address has the fate ${fate}`);
};

describe('the demo SES events', () => {
  it('shares add up to every address', () => {
    expect(DEMO_FATE_SHARES.reduce((sum, [, share]) => sum + share, 0)).toBe(100);
  });

  it('a fate is the address’s, whatever its case, and not random', () => {
    const a = addressWith('hard_bounce');
    expect(demoFate(a.toUpperCase())).toBe('hard_bounce');
    expect(demoSesEvents(message(a), LATER)).toEqual(demoSesEvents(message(a), LATER));
  });

  it('every fate occurs among a thousand addresses, near its share', () => {
    const seen = new Map<DemoFate, number>();
    for (let n = 0; n < 1000; n++) {
      const f = demoFate(`person${n}@example.com`);
      seen.set(f, (seen.get(f) ?? 0) + 1);
    }
    for (const [fate, share] of DEMO_FATE_SHARES) {
      expect(seen.get(fate) ?? 0).toBeGreaterThan(share * 4);
      expect(seen.get(fate) ?? 0).toBeLessThan(share * 20);
    }
  });

  it.each([
    ['hard_bounce', ['Send', 'Bounce'], 'Permanent'],
    ['mailbox_full', ['Send', 'Bounce'], 'Transient'],
    ['auto_reply', ['Send', 'Delivery', 'Bounce'], 'Transient'],
    ['complaint', ['Send', 'Delivery', 'Open', 'Complaint'], null],
    ['clicked', ['Send', 'Delivery', 'Open', 'Click'], null],
    ['opened', ['Send', 'Delivery', 'Open'], null],
    ['delivered', ['Send', 'Delivery'], null],
    ['in_flight', ['Send'], null],
  ] as const)('%s: %j in time order, each in the shape SES publishes', (fate, types, bounceType) => {
    const to = addressWith(fate);
    const parsed = demoSesEvents(message(to), LATER).map(parseSesEvent);
    expect(parsed.map((e) => e.eventType)).toEqual(types);
    const times = parsed.map((e) => e.eventAt.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.every((t) => t > SENT.getTime())).toBe(true);
    for (const e of parsed) expect(e.recipients.map((r) => r.recipient)).toEqual([to]);
    const bounce = parsed.find((e) => e.eventType === 'Bounce')?.recipients[0];
    expect(bounce?.bounceType ?? null).toBe(bounceType);
  });

  it('leaves out what has not happened yet', () => {
    const to = addressWith('clicked');
    const soon = new Date(SENT.getTime() + 5_000);
    const types = demoSesEvents(message(to), soon).map((e) => e.eventType);
    expect(types).not.toContain('Open');
    expect(types).toContain('Send');
  });
});
