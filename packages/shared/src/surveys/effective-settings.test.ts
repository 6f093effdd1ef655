import { describe, expect, it } from 'vitest';
import { effectiveSurveySettings, ownSenderAddress } from './effective-settings.ts';

const client = {
  from_name: 'Acme Dental',
  from_email: 'surveys@mail.acme.com',
  sending_domain: 'acme.com',
  domain_verified: true,
  reply_to: 'front-desk@acme.com',
  over_survey_days: 60,
  quiet_hours_start: '21:00',
  quiet_hours_end: '08:00',
  send_days: ['mon', 'tue'] as ('mon' | 'tue')[],
  daily_cap_per_location: 40,
};

describe('effectiveSurveySettings', () => {
  it('takes the client’s Survey Admin values where the survey leaves them blank', () => {
    expect(effectiveSurveySettings({ sender_name: 'Acme Lakewood', reply_to: null, over_survey_days: null }, client)).toEqual({
      senderName: 'Acme Lakewood',
      senderAddress: 'surveys@mail.acme.com',
      replyTo: 'front-desk@acme.com',
      overSurveyDays: 60,
      quietHoursStart: '21:00',
      quietHoursEnd: '08:00',
      sendDays: ['mon', 'tue'],
      dailyCap: 40,
    });
    expect(effectiveSurveySettings({ sender_name: '  ', reply_to: ' ', over_survey_days: null }, client)).toMatchObject({
      senderName: 'Acme Dental',
      replyTo: 'front-desk@acme.com',
    });
  });

  it('keeps the survey’s own values, zero days included', () => {
    expect(effectiveSurveySettings({ sender_name: 'Acme', reply_to: 'pat@acme.com ', over_survey_days: 0 }, client)).toMatchObject({
      senderName: 'Acme',
      replyTo: 'pat@acme.com',
      overSurveyDays: 0,
    });
  });

  it('is null reply-to when neither sets one', () => {
    expect(
      effectiveSurveySettings({ sender_name: 'Acme', reply_to: null, over_survey_days: 5 }, { ...client, reply_to: null }).replyTo,
    ).toBeNull();
  });
});

describe('ownSenderAddress', () => {
  it('is the client’s address only at its verified sending domain', () => {
    expect(ownSenderAddress(client)).toBe('surveys@mail.acme.com');
    expect(ownSenderAddress({ ...client, domain_verified: false })).toBeNull();
    expect(ownSenderAddress({ ...client, from_email: 'surveys@other.com' })).toBeNull();
    expect(ownSenderAddress({ ...client, from_email: 'surveys@notacme.com' })).toBeNull();
    expect(ownSenderAddress({ ...client, sending_domain: null })).toBeNull();
  });
});
