import { MERGE_FIELDS, MERGE_REQUEST_LABELS, type MergeField, type MergePreview } from '@admin/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { personnel, personnelMerges } from '../../db/schema/index.ts';
import { conflict, fieldsRefused } from '../../lib/http-error.ts';
import { REFERENCES } from './references.ts';
import { type People, type PersonRow, toMergePerson } from './repository.ts';

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
