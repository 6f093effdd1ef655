import { IDENTITY_MAPPING } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../src/db/client.ts';
import { dataFeeds } from '../src/db/schema/index.ts';

export type FeedRow = typeof dataFeeds.$inferSelect;

/** A CSV-upload feed of the first active survey of an active client with an active location, with the identity mapping. */
export async function insertTestFeed(db: Db, name: string): Promise<FeedRow> {
  const [target] = rowsOf(
    await db.execute(sql`
      select s.id as survey_id, s.client_id, l._id as location_id from surveys s
      join locations l on l.client_id = s.client_id and l.status = 'active'
      join clients c on c.id = s.client_id and c.status = 'active'
      where s.status = 'active' order by s.id limit 1`),
  );
  if (!target) throw new Error('no active survey with an active location');
  const [feed] = await db
    .insert(dataFeeds)
    .values({
      clientId: Number(target.client_id),
      name,
      sourceType: 'csv_upload',
      triggerEvent: 'invoice_paid',
      surveyId: Number(target.survey_id),
      locationMode: 'single',
      locationId: String(target.location_id),
      dateFormat: 'yyyy-MM-dd',
      fieldMapping: IDENTITY_MAPPING,
    })
    .returning();
  if (!feed) throw new Error('no feed');
  return feed;
}
