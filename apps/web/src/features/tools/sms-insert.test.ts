import { describe, expect, it } from 'vitest';
import { insertAt } from './sms-insert.ts';

describe('insertAt: an SMS insert button puts its text at the caret', () => {
  it('inserts at the caret, spaced from the words around it, with the caret right after it', () => {
    expect(insertAt('Hi how', '{first_name}', { start: 2, end: 2 })).toEqual({ text: 'Hi {first_name} how', caret: 15 });
    expect(insertAt('Hi,how', '{first_name}', { start: 3, end: 3 })).toEqual({ text: 'Hi, {first_name} how', caret: 16 });
  });

  it('replaces a selection', () => {
    expect(insertAt('Hi NAME, thanks', '{first_name}', { start: 3, end: 7 })).toEqual({ text: 'Hi {first_name}, thanks', caret: 15 });
  });

  it('appends at the end and starts an empty message without a space', () => {
    expect(insertAt('Thanks', '{link}', { start: 6, end: 6 })).toEqual({ text: 'Thanks {link}', caret: 13 });
    expect(insertAt('', '{link}', { start: 0, end: 0 })).toEqual({ text: '{link}', caret: 6 });
    expect(insertAt('Visit ', '{link}', { start: 6, end: 6 })).toEqual({ text: 'Visit {link}', caret: 12 });
  });

  it('keeps a caret past the end inside the message', () => {
    expect(insertAt('Hi', '{link}', { start: 9, end: 12 })).toEqual({ text: 'Hi {link}', caret: 9 });
  });
});
