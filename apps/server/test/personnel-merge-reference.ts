import { MATCH_REASONS, type MatchReason, type MergeGroup } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../src/db/client.ts';
import { personnelMergeDismissals } from '../src/db/schema/index.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { mergePeople, type People } from '../src/modules/personnel-merge/repository.ts';

/**
 * Merge Personnel Data's suggestions as they were computed before migration 0046 kept the match
 * keys (docs/decisions/074-merge-match-keys.md), unchanged: every person of the client grouped by
 * the personnel module's key expressions on each request, every group's people read, then
 * ordered. What modules/personnel-merge/suggestions.ts is checked against.
 */
const MAX_SHARED = 10;

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

export async function referenceGroups(
  db: Db,
  people: People,
  clientId: number,
  q: { q?: string | undefined; person?: number | undefined; cursor?: string | undefined },
  limit: number,
): Promise<{ groups: MergeGroup[]; total: number; nextCursor: string | null }> {
  const matchKey = people.matchKey;
  const matches = rowsOf(
    await db.execute(sql`
      with p as (
        select id, ${sql.raw(MATCH_REASONS.map((r) => `${matchKey(r, 'personnel')} as k_${r}`).join(', '))}
        from personnel where client_id = ${clientId} and merged_into_id is null
      )
      select reason, array_agg(id order by id) as ids from (
        ${sql.raw(MATCH_REASONS.map((r) => `select '${r}' as reason, k_${r} as k, id from p where coalesce(k_${r}, '') <> ''`).join(' union all '))}
      ) m
      group by reason, k
      having count(*) between 2 and ${MAX_SHARED}`),
  ) as { reason: MatchReason; ids: number[] }[];

  // Union-find over the matched pairs.
  const parent = new Map<number, number>();
  const root = (id: number): number => {
    let r = id;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r) ?? r;
    parent.set(id, r);
    return r;
  };
  for (const m of matches) {
    const [first, ...rest] = m.ids.map(Number);
    if (first === undefined) continue;
    for (const id of rest) parent.set(root(id), root(first));
  }
  const members = new Map<number, Set<number>>();
  for (const m of matches) for (const id of m.ids.map(Number)) members.set(root(id), (members.get(root(id)) ?? new Set()).add(id));
  const reasons = new Map<number, Set<MatchReason>>();
  for (const m of matches) {
    const r = root(Number(m.ids[0]));
    reasons.set(r, (reasons.get(r) ?? new Set()).add(m.reason));
  }

  const dismissed = (
    await db
      .select({ ids: personnelMergeDismissals.personnelIds })
      .from(personnelMergeDismissals)
      .where(eq(personnelMergeDismissals.clientId, clientId))
  ).map((d) => new Set(d.ids));
  const candidates = [...members.entries()]
    .map(([r, set]) => ({ ids: [...set].sort((a, b) => a - b), reasons: MATCH_REASONS.filter((x) => reasons.get(r)?.has(x)) }))
    .filter((g) => !dismissed.some((d) => g.ids.every((id) => d.has(id))));

  const chosen = candidates.filter((g) => q.person === undefined || g.ids.includes(q.person));
  const byId = await mergePeople(
    db,
    people,
    chosen.flatMap((g) => g.ids),
  );
  const needle = q.q?.toLowerCase();
  const at = (g: MergeGroup): GroupCursor => [g.people[0]?.name ?? '', g.key];
  const groups = chosen
    .map((g) => ({
      key: g.ids.join('-'),
      personnel_ids: g.ids,
      reasons: g.reasons,
      people: g.ids.map((id) => byId.get(id)).filter((p) => p !== undefined),
    }))
    .filter((g) => !needle || g.people.some((p) => `${p.name} ${p.employee_code ?? ''} ${p.email ?? ''}`.toLowerCase().includes(needle)))
    .sort((a, b) => byFirstName(at(a), at(b)));
  const after = q.cursor ? decodeGroupCursor(q.cursor) : null;
  const rest = after ? groups.filter((g) => byFirstName(at(g), after) > 0) : groups;
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return { groups: page, total: groups.length, nextCursor: rest.length > limit && last ? encodeCursor(at(last)) : null };
}
