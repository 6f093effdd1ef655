/** A UTF-16 surrogate without its pair: not encodable as UTF-8, so PostgreSQL cannot store it. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with one text value, if anything: PostgreSQL stores neither of these. */
export function badText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'contains an invalid character (a lone UTF-16 surrogate)';
  return null;
}
