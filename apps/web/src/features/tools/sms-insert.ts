/**
 * A token or the opt-out footer put into a message where the caret is, replacing a selection: a
 * space keeps it apart from the text before it and from a word (not punctuation) after it, and
 * the caret lands right after the insert. For example `insertAt('Hi how', '{first_name}', { start: 2, end: 2 })` is
 * `{ text: 'Hi {first_name} how', caret: 15 }`.
 */
export function insertAt(text: string, addition: string, at: { start: number; end: number }): { text: string; caret: number } {
  const start = Math.max(0, Math.min(at.start, text.length));
  const end = Math.max(start, Math.min(at.end, text.length));
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = /^[\p{L}\p{N}{]/u.test(after) ? ' ' : '';
  const head = `${before}${lead}${addition}`;
  return { text: `${head}${trail}${after}`, caret: head.length };
}
