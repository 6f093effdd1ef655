import { describe, expect, it } from 'vitest';
import { inboundActionOf, statusOfTwilio, twiml } from './words.ts';

describe('inboundActionOf', () => {
  it('opts out on a single STOP word, any case, trimmed', () => {
    for (const word of ['STOP', ' stop ', 'StopAll', 'unsubscribe', 'CANCEL', 'end', 'quit', 'Remove']) {
      expect(inboundActionOf(word).action).toBe('opt_out');
    }
    expect(inboundActionOf('  stop\n')).toEqual({ action: 'opt_out', keyword: 'STOP' });
  });

  it('opts back in on START, YES and UNSTOP; answers HELP; anything else is nothing', () => {
    expect(inboundActionOf('start')).toEqual({ action: 'opt_in', keyword: 'START' });
    expect(inboundActionOf('Yes')).toEqual({ action: 'opt_in', keyword: 'YES' });
    expect(inboundActionOf('UNSTOP')).toEqual({ action: 'opt_in', keyword: 'UNSTOP' });
    expect(inboundActionOf('help')).toEqual({ action: 'help', keyword: 'HELP' });
    expect(inboundActionOf('please stop texting')).toEqual({ action: 'none', keyword: null });
    expect(inboundActionOf('STOP.')).toEqual({ action: 'none', keyword: null });
    expect(inboundActionOf('')).toEqual({ action: 'none', keyword: null });
  });
});

describe('statusOfTwilio', () => {
  it('maps the provider statuses to ours', () => {
    expect(statusOfTwilio('queued')).toBe('queued');
    expect(statusOfTwilio('sending')).toBe('sent');
    expect(statusOfTwilio('sent')).toBe('sent');
    expect(statusOfTwilio('delivered')).toBe('delivered');
    expect(statusOfTwilio('undelivered')).toBe('undelivered');
    expect(statusOfTwilio('failed')).toBe('failed');
    expect(statusOfTwilio('received')).toBeNull();
    expect(statusOfTwilio('made-up')).toBeNull();
  });
});

describe('twiml', () => {
  it('escapes the message and answers an empty Response when there is none', () => {
    expect(twiml('Acme: <help> & "info"')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Acme: &#60;help&#62; &#38; &#34;info&#34;</Message></Response>',
    );
    expect(twiml(null)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(twiml('a\u0000b')).toContain('<Message>ab</Message>');
  });
});
