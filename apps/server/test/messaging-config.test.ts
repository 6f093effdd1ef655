import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('messaging configuration', () => {
  it('defaults to the outbox for both channels, with the server as the links’ base', () => {
    const c = loadConfig({}).messaging;
    expect(c).toEqual({
      publicBaseUrl: 'http://127.0.0.1:3000',
      email: { transport: 'outbox' },
      emailFrom: 'Customer Feedback <no-reply@example.com>',
      sms: { transport: 'outbox' },
      smsFrom: '+15555550100',
    });
  });

  it('reads the SMTP and SMS API settings', () => {
    const c = loadConfig({
      PUBLIC_BASE_URL: 'https://feedback.example.com/',
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      EMAIL_FROM: 'reviews@example.com',
      SMS_TRANSPORT: 'http',
      SMS_API_URL: 'https://api.twilio.com/2010-04-01/',
      SMS_ACCOUNT_SID: 'AC0123',
      SMS_AUTH_TOKEN: 'tok',
      SMS_FROM: 'Acme',
    }).messaging;
    expect(c).toEqual({
      publicBaseUrl: 'https://feedback.example.com',
      email: { transport: 'smtp', url: 'smtp://user:pass@mail.example.com:587' },
      emailFrom: 'reviews@example.com',
      sms: { transport: 'http', apiUrl: 'https://api.twilio.com/2010-04-01', accountSid: 'AC0123', authToken: 'tok' },
      smsFrom: 'Acme',
    });
  });

  it('names what a chosen transport lacks and each bad value', () => {
    expect(() => loadConfig({ EMAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL: required by the chosen transport/);
    expect(() => loadConfig({ SMS_TRANSPORT: 'http', SMS_API_URL: 'https://x.example' })).toThrow(
      /SMS_ACCOUNT_SID: required[\s\S]*SMS_AUTH_TOKEN: required/,
    );
    expect(() => loadConfig({ EMAIL_TRANSPORT: 'ses' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL: must be an smtp/);
    expect(() => loadConfig({ EMAIL_FROM: 'not an address' })).toThrow(/EMAIL_FROM/);
    expect(() => loadConfig({ SMS_FROM: '555' })).toThrow(/SMS_FROM/);
  });
});
