/**
 * How long an SMS is and what it costs: the encoding, the characters and the segments a carrier
 * bills, computed the same way in the form's live counter and on the server (stored columns).
 *
 * - GSM-7 (GSM 03.38 basic set + extension table) unless any character is outside it; one such
 *   character (an emoji, a curly quote) switches the whole message to UCS-2.
 * - GSM-7: 160 septets in one segment, 153 per segment once concatenated (the 6-byte header);
 *   extension characters (`€ [ ] { } \ ^ ~ |` and form feed) take 2 septets (escape + char).
 * - UCS-2: 70 UTF-16 code units in one segment, 67 once concatenated; a character outside the
 *   Basic Multilingual Plane (most emoji) is a surrogate pair, 2 units.
 * - A segment boundary never splits an escape pair or a surrogate pair: such a character moves
 *   whole to the next segment, leaving one unit unused.
 * - Links (`http(s)://…` and the `{link}` token) are sent through the short-link service, so each
 *   counts as `SMS_LINK_LENGTH` characters; the name tokens count as `SMS_TOKEN_LENGTHS` (assumed,
 *   see there) and are assumed to be filled with GSM-7 characters.
 */

/** A short link's length (`https://` + host + a short code). */
export const SMS_LINK_LENGTH = 23;

/**
 * Lengths assumed for the tokens filled in at send time. A little longer than most values (first
 * names are usually under 10 characters, business names under 25), so the counter warns early
 * rather than late; a longer value can add a segment, which the send log shows.
 */
export const SMS_TOKEN_LENGTHS = {
  '{first_name}': 12,
  '{business_name}': 30,
  '{link}': SMS_LINK_LENGTH,
} as const;
export type SmsToken = keyof typeof SMS_TOKEN_LENGTHS;
export const SMS_TOKENS = Object.keys(SMS_TOKEN_LENGTHS) as SmsToken[];

export type SmsEncoding = 'gsm7' | 'ucs2';
export const SMS_ENCODING_LABELS: Record<SmsEncoding, string> = { gsm7: 'GSM-7', ucs2: 'UCS-2' };

/** Per-segment capacity: one segment alone, and each segment of a concatenated message. */
export const SMS_SEGMENT_SIZES: Record<SmsEncoding, { single: number; multi: number }> = {
  gsm7: { single: 160, multi: 153 },
  ucs2: { single: 70, multi: 67 },
};

/** GSM 03.38 default alphabet (one septet each); ESC (0x1B) is left out, it only prefixes the extension. */
const GSM_BASIC = new Set(
  [
    '@£$¥èéùìòÇ\nØø\rÅå',
    'Δ_ΦΓΛΩΠΨΣΘΞÆæßÉ',
    ' !"#¤%&\'()*+,-./',
    '0123456789:;<=>?',
    '¡ABCDEFGHIJKLMNO',
    'PQRSTUVWXYZÄÖÑÜ§',
    '¿abcdefghijklmno',
    'pqrstuvwxyzäöñüà',
  ].join(''),
);
/** GSM 03.38 extension table (escape + character: two septets each). */
const GSM_EXTENSION = new Set(['\f', '^', '{', '}', '\\', '[', '~', ']', '|', '€']);

/** Links and tokens (written exactly so), replaced by their counted length. Trailing punctuation is not part of a link. */
const PLACEHOLDER = /(?:https?|HTTPS?):\/\/[^\s]*[^\s.,;:!?'")\]]|\{(?:first_name|business_name|link)\}/g;

export type SmsCount = {
  encoding: SmsEncoding;
  /** Characters as sent: each character once, links and tokens at their counted length. */
  characters: number;
  /** What segments are made of: septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** Units one more segment would hold at this length (the counter's "x left"). */
  perSegment: number;
  /** Units left in the last segment before another one starts. */
  remaining: number;
  /** The characters that forced UCS-2, each once, in order of appearance (empty for GSM-7). */
  nonGsm: string[];
  /** Extension characters used (2 septets each in GSM-7), each once. */
  extension: string[];
  links: number;
};

type Atom = { gsm: number; ucs2: number; char: string | null };

/** The message as indivisible atoms: characters (with their sizes) and the plain letters a placeholder stands for. */
function atomsOf(text: string): { atoms: Atom[]; links: number } {
  const atoms: Atom[] = [];
  let links = 0;
  let at = 0;
  const pushText = (part: string) => {
    // `for…of` walks code points, so a surrogate pair stays one atom.
    for (const char of part) {
      atoms.push({ gsm: GSM_EXTENSION.has(char) ? 2 : 1, ucs2: char.length, char });
    }
  };
  for (const match of text.matchAll(PLACEHOLDER)) {
    pushText(text.slice(at, match.index));
    const name = SMS_TOKENS.find((t) => t === match[0]);
    const isLink = name === undefined || name === '{link}';
    if (isLink) links++;
    const length = isLink ? SMS_LINK_LENGTH : SMS_TOKEN_LENGTHS[name];
    for (let i = 0; i < length; i++) atoms.push({ gsm: 1, ucs2: 1, char: null });
    at = match.index + match[0].length;
  }
  pushText(text.slice(at));
  return { atoms, links };
}

/** Segments of atoms of the given sizes: one if they fit alone, else packed greedily without splitting one. */
function segmentsOf(sizes: number[], capacity: { single: number; multi: number }): { units: number; segments: number; last: number } {
  const units = sizes.reduce((a, b) => a + b, 0);
  if (units === 0) return { units, segments: 0, last: 0 };
  if (units <= capacity.single) return { units, segments: 1, last: units };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > capacity.multi) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { units, segments, last: used };
}

/** Counts a message as a carrier bills it (see the top of this file). */
export function countSms(text: string): SmsCount {
  const { atoms, links } = atomsOf(text);
  const nonGsm: string[] = [];
  const extension: string[] = [];
  for (const { char } of atoms) {
    if (char === null) continue;
    if (GSM_EXTENSION.has(char)) {
      if (!extension.includes(char)) extension.push(char);
    } else if (!GSM_BASIC.has(char) && !nonGsm.includes(char)) nonGsm.push(char);
  }
  const encoding: SmsEncoding = nonGsm.length > 0 ? 'ucs2' : 'gsm7';
  const capacity = SMS_SEGMENT_SIZES[encoding];
  const { units, segments, last } = segmentsOf(
    atoms.map((a) => (encoding === 'gsm7' ? a.gsm : a.ucs2)),
    capacity,
  );
  const perSegment = segments <= 1 ? capacity.single : capacity.multi;
  return {
    encoding,
    characters: atoms.length,
    units,
    segments,
    perSegment,
    remaining: segments === 0 ? capacity.single : perSegment - last,
    nonGsm,
    extension,
    links,
  };
}
