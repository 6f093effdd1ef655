import type { ColumnDef } from './list.ts';

/** A row's card: its title column, its status column (when the list has one) and its facts. */
export type CardSpec = { title: string; status?: string; facts: readonly string[] };

/**
 * The card a definition's columns give, where it names no title or facts (`ResourceSpec.card`):
 * the `name` column or else the first shown by default, and the first two others shown by default.
 */
export function cardOf(columns: readonly ColumnDef[], card?: { title?: string; facts?: readonly string[] }): CardSpec {
  const keys = columns.map((c) => c.key);
  const firstShown = columns.find((c) => c.defaultVisible !== false)?.key ?? keys[0] ?? '';
  const title = card?.title ?? (keys.includes('name') ? 'name' : firstShown);
  const status = keys.includes('status') ? 'status' : undefined;
  // The status is the card's badge, never a fact as well (one status shown twice reads as two).
  const facts = (card?.facts ?? columns.filter((c) => c.defaultVisible !== false && c.key !== title).map((c) => c.key))
    .filter((k) => k !== status)
    .slice(0, card?.facts ? undefined : 2);
  return { title, ...(status ? { status } : {}), facts };
}
