import {
  MATCH_REASONS,
  type MatchReason,
  MERGE_FIELDS,
  MERGE_REQUEST_LABELS,
  type MergeField,
  type MergeGroup,
  type MergeHistoryQuery,
  type MergePerson,
  type MergePreview,
  type MergeRecord,
  mergePersonOf,
} from '@admin/shared';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  personnel,
  personnelLocations,
  personnelMergeDismissals,
  personnelMerges,
  surveyProcessingItems,
  surveyResponses,
  users,
} from '../../db/schema/index.ts';
import { afterCursor, allOf, cursorFields, decodeCursor, orderBy, pageOf, type SortSpec } from '../../kit/keyset.ts';
import { conflict, fieldsRefused, HttpError } from '../../lib/http-error.ts';

/** Personnel as the personnel module decorates the app with them (`app.personnel`). */
export type People = FastifyInstance['personnel'];
type PersonRow = typeof personnel.$inferSelect;

/** A phone or email shared by more people than this is an office line, not a duplicate. */
const MAX_SHARED = 10;

function toMergePerson(people: People, row: PersonRow, locations: { name: string }[] = []): MergePerson {
  return mergePersonOf(
    people.toPerson(row),
    locations.map((l) => l.name),
  );
}

async function mergePeople(db: Db, people: People, ids: number[]): Promise<Map<number, MergePerson>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(personnel).where(inArray(personnel.id, ids));
  const links = await people.linksOf(
    db,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, toMergePerson(people, r, links.get(r.id))]));
}

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

/**
 * Suspected duplicate groups of a client (spec: `GET get-merge-personnel`): people not yet merged
 * who share a normalised name, email, phone or employee code. Overlapping matches join into one
 * group (A~B by email, B~C by name → A, B, C). Groups someone dismissed are left out.
 */
export async function findGroups(
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

/** 422 unless every id is a person of the client. */
export async function assertClientPeople(db: Db, clientId: number, ids: number[]): Promise<void> {
  const rows = await db
    .select({ id: personnel.id })
    .from(personnel)
    .where(and(eq(personnel.clientId, clientId), inArray(personnel.id, ids)));
  if (rows.length !== new Set(ids).size) {
    throw fieldsRefused({ personnel_ids: ['Choose people of the current client'] }, MERGE_REQUEST_LABELS);
  }
}

export async function dismissGroup(db: Db, clientId: number, ids: number[], userId: number): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await db.insert(personnelMergeDismissals).values({ clientId, personnelIds: sorted, dismissedBy: userId }).onConflictDoNothing();
}

/**
 * What else points at a person and moves to the survivor. Each later entity that references
 * personnel (responses, processing items, amplifications, testimonials, review mentions, alert
 * rules) adds its entry here, and the preview, the merge and the history pick it up.
 */
const REFERENCES: {
  kind: string;
  count(tx: Db, survivorId: number, duplicateIds: number[]): Promise<number>;
  move(tx: Db, survivorId: number, duplicateIds: number[]): Promise<number>;
}[] = [
  {
    // Links the survivor does not have yet; the duplicates' own links are removed.
    kind: 'location_links',
    async count(tx, survivorId, duplicateIds) {
      const [row] = rowsOf(
        await tx.execute(sql`
          select count(distinct location_id)::int as n from personnel_locations d
          where d.personnel_id in (${sql.join(
            duplicateIds.map((id) => sql`${id}`),
            sql`, `,
          )})
            and not exists (select 1 from personnel_locations s where s.personnel_id = ${survivorId} and s.location_id = d.location_id)`),
      );
      return Number(row?.n ?? 0);
    },
    async move(tx, survivorId, duplicateIds) {
      const moved = await this.count(tx, survivorId, duplicateIds);
      await tx.execute(sql`
        insert into personnel_locations (personnel_id, location_id)
        select distinct ${survivorId}::int, location_id from personnel_locations
        where personnel_id in (${sql.join(
          duplicateIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        on conflict do nothing`);
      await tx.delete(personnelLocations).where(inArray(personnelLocations.personnelId, duplicateIds));
      return moved;
    },
  },
  reassigned('survey_responses', surveyResponses),
  reassigned('survey_processing_items', surveyProcessingItems),
];

/** A table whose rows name one person (`personnel_id`): the duplicates' rows are given to the survivor. */
function reassigned(kind: string, table: typeof surveyResponses | typeof surveyProcessingItems): (typeof REFERENCES)[number] {
  return {
    kind,
    async count(tx, _survivorId, duplicateIds) {
      const [row] = await tx.select({ n: count() }).from(table).where(inArray(table.personnelId, duplicateIds));
      return row?.n ?? 0;
    },
    async move(tx, survivorId, duplicateIds) {
      const moved = await tx
        .update(table)
        .set({ personnelId: survivorId })
        .where(inArray(table.personnelId, duplicateIds))
        .returning({ id: table.id });
      return moved.length;
    },
  };
}

const FIELD_COLUMNS: Record<MergeField, keyof PersonRow> = {
  display_name: 'displayName',
  title: 'title',
  employee_code: 'employeeCode',
  email: 'email',
  phone: 'phone',
  photo_url: 'photoUrl',
};
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A phone number as digits only, without a leading US country code: `+18085558288`,
 * `(808) 555-8288` and `1-808-555-8288` all give `8085558288`. Feeds and people write one
 * number many ways; only a different number is a conflict.
 */
export function phoneDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** Whether two values of a field say the same thing (text without digits compares as text). */
function sameValue(field: MergeField, a: string, b: string): boolean {
  if (field !== 'phone') return same(a, b);
  const [x, y] = [phoneDigits(a), phoneDigits(b)];
  return x !== '' && y !== '' ? x === y : same(a, b);
}
const MAX_ALIASES = 20;

export type MergePlan = MergePreview & {
  survivorRow: PersonRow;
  duplicateRows: PersonRow[];
  aliases: string[];
  fill: Partial<Record<MergeField, string>>;
};

/**
 * Reads the people (locking them when `lock`, in id order so two merges over the same people
 * queue instead of deadlocking) and works out what a merge would do. Refuses (422) a selection
 * that breaks the rules and (409) people already merged — the loser of a race lands here.
 */
export async function planMerge(
  tx: Db,
  people: People,
  clientId: number,
  survivorId: number,
  duplicateIds: number[],
  lock: boolean,
): Promise<MergePlan> {
  const dupIds = [...new Set(duplicateIds)];
  const errors: Record<string, string[]> = {};
  if (dupIds.length === 0) errors.duplicate_ids = ['Choose at least one duplicate'];
  if (dupIds.includes(survivorId)) errors.duplicate_ids = ['The survivor cannot also be a duplicate'];
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, MERGE_REQUEST_LABELS);

  const ids = [survivorId, ...dupIds].sort((a, b) => a - b);
  const query = tx.select().from(personnel).where(inArray(personnel.id, ids)).orderBy(personnel.id);
  const rows = lock ? await query.for('update') : await query;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const survivorRow = byId.get(survivorId);
  const duplicateRows = dupIds.map((id) => byId.get(id)).filter((r) => r !== undefined);
  if (!survivorRow || survivorRow.clientId !== clientId) {
    throw fieldsRefused({ survivor_id: ['Choose a person of the current client'] }, MERGE_REQUEST_LABELS);
  }
  if (duplicateRows.length !== dupIds.length || duplicateRows.some((r) => r.clientId !== clientId)) {
    throw fieldsRefused({ duplicate_ids: ['All people must belong to the current client'] }, MERGE_REQUEST_LABELS);
  }
  const merged = rows.filter((r) => r.mergedIntoId !== null);
  if (merged.length > 0) {
    throw conflict(
      `${merged.map((r) => `${r.firstName} ${r.lastName}`).join(', ')} ${merged.length === 1 ? 'was' : 'were'} already merged into someone else. Reload the suggestions.`,
    );
  }

  const fill: Partial<Record<MergeField, string>> = {};
  const filled: MergePreview['filled'] = [];
  const conflicts: MergePreview['conflicts'] = [];
  for (const field of MERGE_FIELDS) {
    const column = FIELD_COLUMNS[field];
    const mine = survivorRow[column] as string | null;
    const theirs = duplicateRows
      .map((r) => ({ id: r.id, value: r[column] as string | null }))
      .filter((v): v is { id: number; value: string } => v.value !== null && v.value.trim() !== '');
    if (mine === null || mine.trim() === '') {
      const donor = theirs[0];
      if (donor) {
        fill[field] = donor.value;
        filled.push({ field, value: donor.value, from_id: donor.id });
      }
      const others = theirs.filter((t) => donor && !sameValue(field, t.value, donor.value));
      if (donor && others.length > 0) conflicts.push({ field, survivor_value: donor.value, others });
    } else {
      const others = theirs.filter((t) => !sameValue(field, t.value, mine));
      if (others.length > 0) conflicts.push({ field, survivor_value: mine, others });
    }
  }

  // The duplicates' names and codes become aliases so future feed rows and reviews map here.
  const survivorName = people.toPerson(survivorRow).name;
  const aliases = [...survivorRow.aliases];
  const added: string[] = [];
  const known = (a: string) =>
    same(a, survivorName) || same(a, `${survivorRow.firstName} ${survivorRow.lastName}`) || aliases.some((x) => same(x, a));
  for (const d of duplicateRows) {
    const candidates = [`${d.firstName} ${d.lastName}`, d.displayName, ...d.aliases, d.employeeCode];
    for (const c of candidates) {
      const value = c?.trim();
      if (!value || known(value) || (fill.employee_code !== undefined && same(value, fill.employee_code))) continue;
      aliases.push(value);
      added.push(value);
    }
  }
  if (aliases.length > MAX_ALIASES) {
    throw fieldsRefused(
      {
        aliases: [
          `The survivor would have ${aliases.length} aliases; at most ${MAX_ALIASES} are kept. Remove some of the survivor's aliases first, or merge fewer people at once.`,
        ],
      },
      MERGE_REQUEST_LABELS,
    );
  }

  const moved_counts: Record<string, number> = {};
  for (const ref of REFERENCES) moved_counts[ref.kind] = await ref.count(tx, survivorId, dupIds);
  const links = await people.linksOf(tx, ids);
  const location_names = [...new Set(ids.flatMap((id) => (links.get(id) ?? []).map((l) => l.name)))].sort((a, b) => a.localeCompare(b));

  return {
    survivor: toMergePerson(people, survivorRow, links.get(survivorId)),
    duplicates: duplicateRows.map((r) => toMergePerson(people, r, links.get(r.id))),
    filled,
    conflicts,
    aliases_added: added,
    aliases_total: aliases.length,
    moved_counts,
    location_names,
    survivorRow,
    duplicateRows,
    aliases,
    fill,
  };
}

/** Carries out a plan inside the caller's transaction; returns the PersonnelMerge row id. */
export async function applyMerge(tx: Db, people: People, clientId: number, plan: MergePlan, userId: number): Promise<number> {
  const survivorId = plan.survivorRow.id;
  const dupIds = plan.duplicateRows.map((r) => r.id);
  const moved: Record<string, number> = {};
  for (const ref of REFERENCES) moved[ref.kind] = await ref.move(tx, survivorId, dupIds);

  // Duplicates first: their employee codes are released (kept as survivor aliases and in the
  // merge record) so the survivor may take one without breaking the per-client unique index.
  await tx
    .update(personnel)
    .set({ status: 'inactive', mergedIntoId: survivorId, employeeCode: null, updatedAt: sql`now()` })
    .where(inArray(personnel.id, dupIds));
  const set: Partial<typeof personnel.$inferInsert> = { aliases: plan.aliases };
  for (const [field, value] of Object.entries(plan.fill) as [MergeField, string][]) {
    (set as Record<string, string>)[FIELD_COLUMNS[field]] = value;
  }
  await tx
    .update(personnel)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(personnel.id, survivorId));

  const [row] = await tx
    .insert(personnelMerges)
    .values({
      clientId,
      survivorId,
      mergedIds: dupIds,
      movedCounts: moved,
      fieldResolution: {
        filled: plan.filled,
        conflicts: plan.conflicts,
        aliases_added: plan.aliases_added,
        merged_names: plan.duplicates.map((d) => d.name),
        duplicates: plan.duplicateRows.map((r) => people.toPerson(r)),
      },
      performedBy: userId,
    })
    .returning({ id: personnelMerges.id });
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

/** The SQL of each sortable column of the history's definition (`mergeHistoryResource`). */
const HISTORY_SORTS: Record<NonNullable<MergeHistoryQuery['sort']>, SortSpec> = {
  performed_at: [
    { expr: sql`${personnelMerges.performedAt}`, cast: 'timestamptz' },
    { expr: sql`${personnelMerges.id}`, cast: 'integer' },
  ],
};

export async function listHistory(
  db: Db,
  people: People,
  clientId: number,
  q: Pick<MergeHistoryQuery, 'sort' | 'order' | 'cursor'>,
  limit: number,
): Promise<{ rows: MergeRecord[]; nextCursor: string | null }> {
  const keys = HISTORY_SORTS[q.sort ?? 'performed_at'];
  const order = q.order ?? 'desc';
  const rows = await db
    .select({ merge: personnelMerges, by: users.name, survivor: personnel, ...cursorFields(keys) })
    .from(personnelMerges)
    .innerJoin(users, eq(users.id, personnelMerges.performedBy))
    .innerJoin(personnel, eq(personnel.id, personnelMerges.survivorId))
    .where(allOf([eq(personnelMerges.clientId, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return {
    rows: page.map((r) => {
      const resolution = r.merge.fieldResolution as { merged_names?: string[]; aliases_added?: string[] };
      return {
        id: r.merge.id,
        performed_at: r.merge.performedAt.toISOString(),
        performed_by: r.by,
        survivor_id: r.merge.survivorId,
        survivor_name: people.toPerson(r.survivor).name,
        merged_ids: r.merge.mergedIds,
        merged_names: resolution.merged_names ?? [],
        moved_counts: r.merge.movedCounts,
        aliases_added: resolution.aliases_added ?? [],
      };
    }),
    nextCursor,
  };
}

export async function countHistory(db: Db, clientId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(personnelMerges).where(eq(personnelMerges.clientId, clientId));
  return Number(row?.n ?? 0);
}
