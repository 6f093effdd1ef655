import { describe, expect, it } from 'vitest';
import { parseSesEvent } from './parse.ts';
import { suppressionFor, transientBurst } from './policy.ts';
import { forwardStatus } from './rank.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
const bounce = (bounceType: string, bounceSubtype: string) => ({ eventType: 'Bounce', bounceType, bounceSubtype, complaintSubtype: null });

describe('suppression policy', () => {
  it('suppresses a permanent bounce, a complaint and SES account-list bounces at once', () => {
    expect(suppressionFor(bounce('Permanent', 'General'), false)).toBe('BOUNCE');
    expect(suppressionFor({ eventType: 'Complaint', bounceType: null, bounceSubtype: null, complaintSubtype: null }, false)).toBe(
      'COMPLAINT',
    );
    expect(suppressionFor(bounce('Undetermined', 'OnAccountSuppressionList'), false)).toBe('BOUNCE');
    expect(suppressionFor(bounce('Undetermined', 'Undetermined'), true)).toBeNull();
  });
  it('suppresses a transient bounce only in a burst, never a Transient General one', () => {
    expect(suppressionFor(bounce('Transient', 'MailboxFull'), false)).toBeNull();
    expect(suppressionFor(bounce('Transient', 'MailboxFull'), true)).toBe('BOUNCE');
    expect(suppressionFor(bounce('Transient', 'General'), true)).toBeNull();
  });
  it('finds three within any 30 days, whatever order they came in', () => {
    expect(transientBurst([day(20), day(0), day(10)])).toBe(true);
    expect(transientBurst([day(0), day(29), day(58)])).toBe(false);
    expect(transientBurst([day(1), day(30), day(31)])).toBe(true);
    expect(transientBurst([day(0), day(30), day(31)])).toBe(false);
    expect(transientBurst([day(0), day(1)])).toBe(false);
  });
});

describe('status rank', () => {
  it('moves only forward; bounces and complaints outrank opens', () => {
    expect(forwardStatus('opened', 'delivered')).toBe('opened');
    expect(forwardStatus('sent', 'delivered')).toBe('delivered');
    expect(forwardStatus('clicked', 'bounced')).toBe('bounced');
    expect(forwardStatus('bounced', 'opened')).toBe('bounced');
    expect(forwardStatus('bounced', 'complained')).toBe('complained');
    expect(forwardStatus('suppressed', 'delivered')).toBe('suppressed');
  });
});

describe('parseSesEvent', () => {
  it('reads a bounce per recipient, lower-cased, at the bounce time, ignoring unknown fields', () => {
    const e = parseSesEvent({
      notificationType: 'Bounce',
      newField: { anything: true },
      mail: { messageId: 'm-1', timestamp: '2026-01-01T00:00:00Z', source: 'Us <noreply@example.com>', commonHeaders: { subject: 'Hi' } },
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        timestamp: '2026-01-01T00:05:00Z',
        bouncedRecipients: [
          { emailAddress: '"Jane" <Jane@Example.COM>', diagnosticCode: 'smtp; 550 no such user' },
          { emailAddress: 'b@x.org' },
        ],
      },
    });
    expect(e.recipients.map((r) => r.recipient)).toEqual(['b@x.org', 'jane@example.com']);
    expect(e.eventAt.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(e.source).toBe('noreply@example.com');
    expect(e.recipients[1]?.diagnosticCode).toBe('smtp; 550 no such user');
  });
  it('names Rendering Failure as stored and falls back to the mail time and destination', () => {
    const e = parseSesEvent({
      eventType: 'Rendering Failure',
      mail: { messageId: 'm', timestamp: '2026-01-02T00:00:00Z', destination: ['A@b.c'] },
    });
    expect(e.eventType).toBe('RenderingFailure');
    expect(e.recipients[0]?.recipient).toBe('a@b.c');
    expect(e.eventAt.toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
  it('refuses an event without a type, message id, time or recipient with a 400 naming Message', () => {
    for (const bad of [
      null,
      [],
      {},
      { eventType: 'Open' },
      { eventType: 'Nope', mail: { messageId: 'm' } },
      { eventType: 'Open', mail: { messageId: 'm', destination: ['x@y.z'] } },
      { eventType: 'Open', mail: { messageId: 'm', timestamp: '2026-01-01T00:00:00Z' } },
    ]) {
      expect(() => parseSesEvent(bad)).toThrow(expect.objectContaining({ statusCode: 400, errors: { Message: [expect.any(String)] } }));
    }
  });
});
