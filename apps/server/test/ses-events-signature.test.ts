import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from './helpers.ts';
import { openSesEventsBed, type SesEventsBed, ses } from './ses-events-bed.ts';
import { TEST_CERT_URL } from './sns-signer.ts';

// POST /api/v1/ses/events: SNS's signature exactly as AWS specifies it (reference-second-half.md A1).
// Every refusal is a 403 naming why, with nothing written but one System Logs row.

describe.each(testDatabaseKinds())('SES events: SNS signatures (%s)', (kind) => {
  let bed: SesEventsBed;
  beforeAll(async () => {
    bed = await openSesEventsBed(kind);
  });
  afterAll(async () => bed?.close());

  const open = (id: string) => ses.simple('Open', id, 'jane@example.com', '2026-01-01T10:00:00.000Z');

  it('accepts SignatureVersion 1 and 2, as text/plain and as JSON', async () => {
    const v1 = await bed.post(bed.signer.notification(open('m-v1'), { version: '1' }));
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json()).toEqual({ data: { inserted: 1, duplicates: 0 } });
    const v2 = await bed.post(bed.signer.notification(open('m-v2'), { version: '2' }), 'application/json');
    expect(v2.statusCode, v2.body).toBe(200);
    expect((await bed.counts()).events).toBe(2);
  });

  const refused = async (body: object | string, why: RegExp) => {
    const before = await bed.counts();
    const res = await bed.post(body);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toMatch(why);
    const after = await bed.counts();
    expect(after).toEqual({ ...before, refusals: before.refusals + 1 });
  };

  it('refuses an unsigned message, a wrong signature, a field changed after signing and another version', async () => {
    const signed = bed.signer.notification(open('m-x'));
    const { Signature: _, ...unsigned } = signed;
    await refused(unsigned, /Signature field is missing/);
    await refused({ ...signed, Signature: bed.signer.notification(open('m-y')).Signature }, /signature does not match/);
    await refused({ ...signed, Message: signed.Message.replace('jane@', 'eve@') }, /signature does not match/);
    await refused({ ...signed, Timestamp: '2026-01-01T00:00:00.000Z' }, /signature does not match/);
    await refused({ ...signed, SignatureVersion: '3' }, /signature does not match/);
    await refused('not json', /body is not JSON/);
  });

  it('refuses a topic not in SES_SNS_TOPIC_ARNS even when signed', async () => {
    await refused(bed.signer.notification(open('m-t'), { topicArn: 'arn:aws:sns:us-east-1:123456789012:other' }), /TopicArn/);
  });

  it('refuses a certificate URL on another host without any outbound call', async () => {
    const calls = bed.signer.fetcher.calls.length;
    for (const url of [
      'https://evil.example.com/SimpleNotificationService-abc.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
      'http://sns.us-east-1.amazonaws.com/cert.pem',
      'https://user@sns.us-east-1.amazonaws.com/cert.pem',
      `${TEST_CERT_URL}?x=1`,
      `${TEST_CERT_URL}#f`,
      'https://sns.us-east-1.amazonaws.com/../cert.pem',
    ]) {
      await refused(bed.signer.notification(open('m-u'), { certUrl: url }), /SigningCertURL/);
    }
    expect(bed.signer.fetcher.calls.length).toBe(calls);
  });

  it('refuses a 10 MB body with 413 and writes nothing', async () => {
    const before = await bed.counts();
    const res = await bed.post('x'.repeat(10 * 1024 * 1024));
    expect(res.statusCode).toBe(413);
    expect(await bed.counts()).toEqual(before);
  });

  it('answers 400 for malformed JSON inside Message, and writes nothing', async () => {
    const before = await bed.counts();
    const res = await bed.post(bed.signer.notification('{"eventType": "Bounce", '));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Message field/);
    const shape = await bed.post(bed.signer.notification({ eventType: 'Bounce', mail: { messageId: 'm' } }));
    expect(shape.statusCode).toBe(400);
    expect(await bed.counts()).toEqual(before);
  });

  it('confirms a subscription by calling its SubscribeURL, and logs an unsubscribe', async () => {
    const sub = bed.signer.subscription('SubscriptionConfirmation');
    const res = await bed.post(sub);
    expect(res.statusCode, res.body).toBe(200);
    expect(bed.confirmed).toEqual([sub.SubscribeURL]);
    const unsub = await bed.post(bed.signer.subscription('UnsubscribeConfirmation'));
    expect(unsub.statusCode).toBe(200);
    expect(bed.confirmed).toHaveLength(1);
    // A subscription whose Token was changed after signing is refused, and nothing is called.
    await refused({ ...bed.signer.subscription('SubscriptionConfirmation'), Token: 'forged' }, /signature does not match/);
    expect(bed.confirmed).toHaveLength(1);
  });

  it('opens to no session: a signed-in request without a signature is still refused', async () => {
    const res = await bed.app.inject({ method: 'POST', url: '/api/v1/ses/events', payload: {}, headers: { authorization: 'Bearer x' } });
    expect(res.statusCode).toBe(403);
  });
});
