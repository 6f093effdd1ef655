import { describe, expect, it } from 'vitest';
import { smsOptOutResource, smsOptOutSourceLabel } from './sms-opt-outs.ts';

describe('SMS opt-outs definition', () => {
  it('names every source in words, an unknown one by its words and never its raw key', () => {
    expect(smsOptOutSourceLabel('inbound')).toBe('Text reply');
    expect(smsOptOutSourceLabel('unsubscribe_link')).toBe('Unsubscribe link');
    expect(smsOptOutSourceLabel('manual')).toBe('By hand');
    expect(smsOptOutSourceLabel('crm_import')).toBe('Crm import');
    expect(smsOptOutSourceLabel('constructor')).toBe('Constructor');
  });

  it('writes the time in UTC, named, and a phone of every client as All clients', () => {
    const row = {
      id: '+15555550142',
      phone: '+15555550142',
      keyword: 'STOP',
      source: 'inbound',
      client_id: null,
      client_name: null,
      created_at: '2026-11-26T15:05:03.000Z',
    };
    const format = (key: string) => smsOptOutResource.columns.find((c) => c.key === key)?.format;
    expect(format('created_at')?.(row)).toBe('Nov 26, 2026, 3:05 PM UTC');
    expect(format('client_name')?.(row)).toBe('All clients');
    expect(format('client_name')?.({ ...row, client_id: 3, client_name: 'Acme' })).toBe('Acme');
    expect(format('source')?.(row)).toBe('Text reply');
  });
});
