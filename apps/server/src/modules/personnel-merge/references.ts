import { count, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { amplifications, personnelLocations, surveyProcessingItems, surveyResponses, testimonials } from '../../db/schema/index.ts';

/**
 * What else points at a person and moves to the survivor. Each later entity that references
 * personnel (responses, processing items, amplifications, testimonials, review mentions, alert
 * rules) adds its entry here, and the preview, the merge and the history pick it up.
 */
export const REFERENCES: {
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
  reassigned('amplifications', amplifications),
  reassigned('testimonials', testimonials),
  {
    // Reviews naming a duplicate (reputation/ingest/personnel-mentions.ts) name the survivor
    // instead, once. The people are one client's, so its reviews are all that can hold them.
    kind: 'review_mentions',
    async count(tx, survivorId, duplicateIds) {
      const [row] = rowsOf(
        await tx.execute(sql`select count(*)::int as n from reviews
          where client_id = ${clientOf(survivorId)} and personnel_ids && ${idArray(duplicateIds)}`),
      );
      return Number(row?.n ?? 0);
    },
    async move(tx, survivorId, duplicateIds) {
      const moved = rowsOf(
        await tx.execute(sql`
          update reviews set personnel_ids = array(
              select distinct case when p = any(${idArray(duplicateIds)}) then ${survivorId}::int else p end
                from unnest(personnel_ids) p order by 1)
           where client_id = ${clientOf(survivorId)} and personnel_ids && ${idArray(duplicateIds)}
          returning id`),
      );
      return moved.length;
    },
  },
];

const clientOf = (personId: number) => sql`(select client_id from personnel where id = ${personId})`;
const idArray = (ids: number[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;

/** A table whose rows name one person (`personnel_id`): the duplicates' rows are given to the survivor. */
function reassigned(
  kind: string,
  table: typeof surveyResponses | typeof surveyProcessingItems | typeof amplifications | typeof testimonials,
): (typeof REFERENCES)[number] {
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
