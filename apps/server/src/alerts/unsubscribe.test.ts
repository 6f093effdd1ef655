import { describe, expect, it } from 'vitest';
import { withUnsubscribe } from './unsubscribe.ts';

describe('withUnsubscribe', () => {
  it('ends an alert e-mail with the Stop line and gives RFC 8058 one-click headers to the same link', () => {
    const url = 'https://feedback.test/alerts/unsubscribe/abc';
    const { text, headers } = withUnsubscribe(['Rule: Low ratings', 'Site: Google'], url);
    expect(text).toBe(`Rule: Low ratings\nSite: Google\n\nStop these alerts: ${url}`);
    expect(headers).toEqual({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});
