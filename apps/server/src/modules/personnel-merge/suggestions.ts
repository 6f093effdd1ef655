import { MATCH_REASONS, type MatchReason, type MergeGroup } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../../db/client.ts';
import { personnel, personnelMatchKeys, personnelMergeDismissals } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { mergePeople, type People } from './repository.ts';

/** A phone or email shared by more people than this is an office line, not a duplicate. */
const MAX_SHARED = 10;

/** Each reason's key column on personnel (db/schema/personnel.ts), kept by the database. */
const KEY_COLUMNS: Record<MatchReason, PgColumn> = {
  name: personnel.nameKey,
  email: personnel.emailKey,
  phone: personnel.phoneKey,
  code: personnel.codeKey,
};

/** Where a page of groups starts: after the group with this first name and key (the list's order). */
type GroupCursor = [name: string, key: string];
const encodeCursor = (at: GroupCursor) => Buffer.from(JSON.stringify(at)).toString('base64url');
function decodeGroupCursor(cursor: string): GroupCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) return [String(value[0]), String(value[1])];
  throw new HttpError(400, 'Invalid query: cursor.', { cursor: ['The cursor is not valid for this list. Start from the first page.'] });
}
const byFirstName = (a: GroupCursor, b: GroupCursor) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]);

/** What the order and the search read of a person: the name as the merge screens show it, the code, the email. */
type Summary = { name: string; code: string | null; email: string | null };
type Match = { reason: MatchReason; ids: number[] };

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * The people of every key two to MAX_SHARED of the client's unmerged people share, with what the
 * order and the search read of them: the keys personnel_match_keys counts as shared (a small
 * partial index), each joined back to its people through the key column's index — never a pass
 * over all of the client's people. One statement, one row per key and person. Exported for
 * bench/merge, which times it alone beside the route.
 */
export async function sharedKeys(db: Db, clientId: number): Promise<{ matches: Match[]; summaries: Map<number, Summary> }> {
  const k = personnelMatchKeys;
  const perReason: SQL[] = MATCH_REASONS.map((reason) => {
    const column = KEY_COLUMNS[reason];
    return sql`select ${reason}::text as reason, ${k.key} as key, ${personnel.id} as id, ${personnel.firstName} as first_name,
        ${personnel.lastName} as last_name, ${personnel.displayName} as display_name, ${personnel.employeeCode} as code, ${personnel.email} as email
      from ${k} join ${personnel} on ${personnel.clientId} = ${k.clientId} and ${column} = ${k.key}
        and ${personnel.mergedIntoId} is null and ${column} <> ''
      where ${k.clientId} = ${clientId} and ${k.reason} = ${reason} and ${k.n} >= 2 and ${k.n} <= ${MAX_SHARED}`;
  });
  // One process, no parallel workers, for this transaction only: the statement is some thousand
  // index probes, and starting a worker cost more than it saved in bench/merge (2 cores, loaded).
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('max_parallel_workers_per_gather', '0', true)`);
    return rowsOf(await tx.execute(sql.join(perReason, sql` union all `)));
  });
  const byKey = new Map<string, Match>();
  const summaries = new Map<number, Summary>();
  for (const r of rows) {
    const id = Number(r.id);
    const reason = r.reason as MatchReason;
    const at = `${reason} ${String(r.key)}`;
    const match = byKey.get(at) ?? { reason, ids: [] };
    match.ids.push(id);
    byKey.set(at, match);
    // The name as the personnel module's toPerson gives it: the display name, else first and last.
    summaries.set(id, {
      name: text(r.display_name) ?? `${String(r.first_name)} ${String(r.last_name)}`,
      code: text(r.code),
      email: text(r.email),
    });
  }
  const matches = [...byKey.values()];
  for (const m of matches) m.ids.sort((x, y) => x - y);
  return { matches, summaries };
}

/** Joins the people of overlapping matches into groups (union-find); each group's reasons in MATCH_REASONS' order. */
function joinMatches(matches: Match[]): { ids: number[]; reasons: MatchReason[] }[] {
  const parent = new Map<number, number>();
  const root = (id: number): number => {
    let r = id;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r) ?? r;
    parent.set(id, r);
    return r;
  };
  for (const m of matches) {
    const [first, ...rest] = m.ids;
    if (first === undefined) continue;
    for (const id of rest) parent.set(root(id), root(first));
  }
  const members = new Map<number, Set<number>>();
  const reasons = new Map<number, Set<MatchReason>>();
  for (const m of matches) {
    for (const id of m.ids) members.set(root(id), (members.get(root(id)) ?? new Set()).add(id));
    const r = root(m.ids[0] ?? 0);
    reasons.set(r, (reasons.get(r) ?? new Set()).add(m.reason));
  }
  return [...members.entries()].map(([r, set]) => ({
    ids: [...set].sort((a, b) => a - b),
    reasons: MATCH_REASONS.filter((x) => reasons.get(r)?.has(x)),
  }));
}

/**
 * Suspected duplicate groups of a client (spec: `GET get-merge-personnel`): people not yet merged
 * who share a normalised name, email, phone or employee code. Overlapping matches join into one
 * group (A~B by email, B~C by name → A, B, C). Groups someone dismissed are left out. Ordered by
 * the name of each group's first person, then its key; only the page's people are read whole.
 */
export async function findGroups(
  db: Db,
  people: People,
  clientId: number,
  q: { q?: string | undefined; person?: number | undefined; cursor?: string | undefined },
  limit: number,
): Promise<{ groups: MergeGroup[]; total: number; nextCursor: string | null }> {
  const after = q.cursor ? decodeGroupCursor(q.cursor) : null;
  const dismissed = (
    await db
      .select({ ids: personnelMergeDismissals.personnelIds })
      .from(personnelMergeDismissals)
      .where(eq(personnelMergeDismissals.clientId, clientId))
  ).map((d) => new Set(d.ids));
  const { matches, summaries } = await sharedKeys(db, clientId);
  const chosen = joinMatches(matches)
    .filter((g) => !dismissed.some((d) => g.ids.every((id) => d.has(id))))
    .filter((g) => q.person === undefined || g.ids.includes(q.person));

  const needle = q.q?.toLowerCase();
  const found = (id: number) => {
    const p = summaries.get(id);
    return p !== undefined && `${p.name} ${p.code ?? ''} ${p.email ?? ''}`.toLowerCase().includes(needle ?? '');
  };
  const at = (g: { ids: number[]; key: string }): GroupCursor => [summaries.get(g.ids[0] ?? 0)?.name ?? '', g.key];
  const ordered = chosen
    .map((g) => ({ ...g, key: g.ids.join('-') }))
    .filter((g) => !needle || g.ids.some(found))
    .sort((a, b) => byFirstName(at(a), at(b)));
  const rest = after ? ordered.filter((g) => byFirstName(at(g), after) > 0) : ordered;
  const page = rest.slice(0, limit);
  const byId = await mergePeople(
    db,
    people,
    page.flatMap((g) => g.ids),
  );
  const groups = page.map((g) => ({
    key: g.key,
    personnel_ids: g.ids,
    reasons: g.reasons,
    people: g.ids.map((id) => byId.get(id)).filter((p) => p !== undefined),
  }));
  const last = page[page.length - 1];
  return { groups, total: ordered.length, nextCursor: rest.length > limit && last ? encodeCursor(at(last)) : null };
}
