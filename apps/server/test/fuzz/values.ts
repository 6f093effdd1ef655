// What a fuzz request is written with: values JSON cannot express, and URL text sent as is.

/** JSON text sent as is: what JSON.stringify cannot write (-0, 1e400, nesting thousands deep). */
export class RawJson {
  constructor(readonly text: string) {}
}
/** Text put into the URL as is (a broken percent escape, an encoded NUL). */
export class RawUrl {
  constructor(readonly text: string) {}
}

export type Value = null | boolean | number | string | RawJson | Value[] | { [key: string]: Value };
export type UrlText = string | RawUrl;
export type QueryPart = [UrlText, UrlText];

/** JSON text of a value; keys like `__proto__` are written as they are (own properties). */
export function toJson(value: Value): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser would send it). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
export const urlText = (t: UrlText) => (t instanceof RawUrl ? t.text : pct(t));
