import { describe, expect, it } from 'vitest';
import { MESSAGE_CSP, messageDocument } from './message-frame.tsx';

/** The frame's document parsed back, as the browser will read it. */
const parsed = (html: string, options?: { remoteImages?: boolean }) =>
  new DOMParser().parseFromString(messageDocument(html, options), 'text/html');

describe('messageDocument', () => {
  it('puts the policy first, before any of the message', () => {
    const doc = parsed('<meta http-equiv="Content-Security-Policy" content="img-src *"><p>Hi</p>');
    const first = doc.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
    expect(first?.getAttribute('content')).toBe(MESSAGE_CSP);
    expect(doc.body.textContent).toBe('Hi');
  });

  it('opens every web and mail link in a new tab without the console as opener', () => {
    const doc = parsed('<p><a href="https://example.com/s/abc" target="_self">survey</a> <a href="mailto:x@example.com">mail</a></p>');
    for (const link of doc.querySelectorAll('a')) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('makes a link that could not work in a new tab inert', () => {
    const doc = parsed('<a href="javascript:alert(1)" target="_top">x</a><a href="/relative">y</a>');
    for (const link of doc.querySelectorAll('a')) {
      expect(link.hasAttribute('href')).toBe(false);
      expect(link.hasAttribute('target')).toBe(false);
    }
  });

  it('loads remote images only in a preview', () => {
    expect(messageDocument('<p>x</p>')).toContain('img-src data:;');
    expect(messageDocument('<p>x</p>', { remoteImages: true })).toContain('img-src https: data:;');
  });
});
