import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSesEventsBed, type SesEventsBed } from './ses-events-bed.ts';

// Whatever a client sends to the SNS endpoint, signed or not, the answer is a 4xx or a 200, never
// a 5xx: random envelopes, and random SES events inside correctly signed ones.

describe('SES events: no input makes a 5xx (pglite)', () => {
  let bed: SesEventsBed;
  beforeAll(async () => {
    bed = await openSesEventsBed('pglite');
  });
  afterAll(async () => bed?.close());

  it('random bodies and content types', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.object().map((o) => JSON.stringify(o)),
        ),
        fc.constantFrom('text/plain; charset=UTF-8', 'application/json', 'text/plain'),
        async (body, contentType) => {
          const res = await bed.post(body, contentType);
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('random SES events inside signed notifications', async () => {
    const recipient = fc.oneof(fc.emailAddress(), fc.string(), fc.constant(null), fc.integer());
    const event = fc.record(
      {
        eventType: fc.oneof(
          fc.constantFrom('Bounce', 'Complaint', 'Delivery', 'Open', 'Click', 'Send', 'Rendering Failure', 'DeliveryDelay'),
          fc.string(),
        ),
        mail: fc.record(
          {
            messageId: fc.oneof(fc.string({ minLength: 1 }), fc.integer()),
            timestamp: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              fc.string(),
            ),
            destination: fc.array(recipient, { maxLength: 3 }),
            commonHeaders: fc.object(),
          },
          { requiredKeys: [] },
        ),
        bounce: fc.record(
          {
            bounceType: fc.oneof(fc.constantFrom('Permanent', 'Transient', 'Undetermined'), fc.string()),
            bounceSubType: fc.string(),
            bouncedRecipients: fc.array(fc.record({ emailAddress: recipient, diagnosticCode: fc.oneof(fc.string(), fc.integer()) }), {
              maxLength: 3,
            }),
            timestamp: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              fc.string(),
            ),
          },
          { requiredKeys: [] },
        ),
        complaint: fc.record(
          { complainedRecipients: fc.array(fc.record({ emailAddress: recipient }), { maxLength: 3 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(event, async (e) => {
        const res = await bed.post(bed.signer.notification(e));
        expect(res.statusCode, res.body).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});
