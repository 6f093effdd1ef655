import { sql } from 'drizzle-orm';
import { foldText } from '../../alerts/triggers.ts';
import { type Db, rowsOf } from '../../db/client.ts';

/**
 * Personnel a review names (`reviews.personnel_ids`, "matched mentions": domain.md part D; the
 * Personnel form's aliases are "name variants used for review matching", domain.md §14). Read
 * once per batch: one query for the active personnel of the batch's clients, then each review's
 * words are looked up in an index of name phrases by their first word, built once per location.
 * docs/decisions/057-personnel-named-in-reviews.md says which names count and why.
 */

export type Person = {
  id: number;
  clientId: number;
  firstName: string;
  lastName: string;
  displayName: string | null;
  aliases: readonly string[];
  locationIds: readonly string[];
};

/** A review as the mention finder reads it. */
export type MentionSource = { clientId: number; locationId: string; text: string | null };

/** A name as words; `capitalised`: the first name alone, which counts only where the text writes it as a name. */
type Phrase = { words: string[]; personId: number; capitalised: boolean };
type PhraseIndex = Map<string, Phrase[]>;

const NOT_WORD = /[^\p{L}\p{N}]+/u;
const UPPER = /^\p{Lu}/u;
const ASCII = /^[A-Za-z0-9]*$/;

/** A word folded as alerts/triggers.ts `foldText` folds it; most words are plain ASCII letters and digits, where that is lower case alone. */
const foldWord = (word: string): string => (ASCII.test(word) ? word.toLowerCase() : foldText(word));

/** A text's words as written (for the capital) and folded (lower case, no accents: the keyword rule of alerts/triggers.ts). */
function wordsOf(text: string): { raw: string[]; folded: string[] } {
  const raw = text
    .normalize('NFC')
    .split(NOT_WORD)
    .filter((w) => w !== '');
  return { raw, folded: raw.map(foldWord) };
}

/**
 * A name's folded words; none for a name too short to tell apart from a letter in a sentence.
 * Kept between batches (a client's names come back with each one), as triggers.ts keeps keywords.
 */
const phrases = new Map<string, string[]>();
const PHRASES_MAX = 100_000;
function phraseWords(name: string | null): string[] {
  if (!name) return [];
  let words = phrases.get(name);
  if (words === undefined) {
    const folded = wordsOf(name).folded;
    words = folded.join('').length < 2 ? [] : folded;
    if (phrases.size >= PHRASES_MAX) phrases.clear();
    phrases.set(name, words);
  }
  return words;
}

/**
 * The names that count for these candidates: each one's full name, display name and aliases; the
 * first name alone only for someone no other candidate shares it with (two Marias: "Maria" names
 * neither for sure).
 */
export function indexOf(candidates: readonly Person[]): PhraseIndex {
  const firstNames = new Map<string, number>();
  for (const p of candidates) {
    const first = phraseWords(p.firstName).join(' ');
    if (first !== '') firstNames.set(first, (firstNames.get(first) ?? 0) + 1);
  }
  const index: PhraseIndex = new Map();
  const add = (words: string[], personId: number, capitalised: boolean) => {
    const [head] = words;
    if (head === undefined) return;
    const list = index.get(head) ?? [];
    list.push({ words, personId, capitalised });
    index.set(head, list);
  };
  for (const p of candidates) {
    for (const name of [`${p.firstName} ${p.lastName}`, p.displayName, ...p.aliases]) add(phraseWords(name), p.id, false);
    const first = phraseWords(p.firstName);
    if (first.length > 0 && firstNames.get(first.join(' ')) === 1) add(first, p.id, true);
  }
  return index;
}

/** The ids of the people a text names, ascending. */
export function mentionsIn(text: string | null, index: PhraseIndex): number[] {
  if (!text || index.size === 0) return [];
  const { raw, folded } = wordsOf(text);
  const found = new Set<number>();
  folded.forEach((word, i) => {
    for (const phrase of index.get(word) ?? []) {
      if (found.has(phrase.personId)) continue;
      if (phrase.capitalised && !UPPER.test(raw[i] ?? '')) continue;
      if (phrase.words.every((w, k) => folded[i + k] === w)) found.add(phrase.personId);
    }
  });
  return [...found].sort((a, b) => a - b);
}

/** The active personnel of these clients with the locations each works at, in one query. */
export async function activePersonnelOf(db: Db, clientIds: readonly number[]): Promise<Person[]> {
  if (clientIds.length === 0) return [];
  const rows = rowsOf(
    await db.execute(sql`
      select p.id, p.client_id, p.first_name, p.last_name, p.display_name, to_jsonb(p.aliases) as aliases,
        coalesce((select jsonb_agg(pl.location_id) from personnel_locations pl where pl.personnel_id = p.id), '[]'::jsonb) as location_ids
      from personnel p
      where p.client_id in (select jsonb_array_elements_text(${JSON.stringify(clientIds)}::jsonb)::int)
        and p.status = 'active' and p.merged_into_id is null`),
  );
  const texts = (v: unknown): string[] => {
    const list = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  };
  return rows.map((r) => ({
    id: Number(r.id),
    clientId: Number(r.client_id),
    firstName: String(r.first_name),
    lastName: String(r.last_name),
    displayName: typeof r.display_name === 'string' ? r.display_name : null,
    aliases: texts(r.aliases),
    locationIds: texts(r.location_ids),
  }));
}

/**
 * Each review's named personnel, in the order given. The candidates are the client's active
 * personnel who work at the review's location; for a location nobody is linked to, all the
 * client's active personnel (a client that does not link its staff to locations).
 */
export async function personnelMentions(db: Db, reviews: readonly MentionSource[]): Promise<number[][]> {
  const withText = reviews.filter((r) => r.text !== null && r.text.trim() !== '');
  if (withText.length === 0) return reviews.map(() => []);
  const people = await activePersonnelOf(db, [...new Set(withText.map((r) => r.clientId))]);

  if (people.length === 0) return reviews.map(() => []);
  const byClient = new Map<number, Person[]>();
  const byLocation = new Map<string, Person[]>();
  const push = <K>(map: Map<K, Person[]>, key: K, p: Person) => {
    const list = map.get(key);
    if (list) list.push(p);
    else map.set(key, [p]);
  };
  for (const p of people) {
    push(byClient, p.clientId, p);
    for (const locationId of p.locationIds) push(byLocation, `${p.clientId}\u0000${locationId}`, p);
  }
  const indexes = new Map<string, PhraseIndex>();
  const indexFor = (clientId: number, locationId: string): PhraseIndex => {
    const key = `${clientId}\u0000${locationId}`;
    let index = indexes.get(key);
    if (!index) {
      index = indexOf(byLocation.get(key) ?? byClient.get(clientId) ?? []);
      indexes.set(key, index);
    }
    return index;
  };
  return reviews.map((r) => (r.text ? mentionsIn(r.text, indexFor(r.clientId, r.locationId)) : []));
}
