import { checkFeed, type DataFeedBody, dataFeedResource } from '@admin/shared';
import type { Db } from '../db/client.ts';
import { dataFeeds } from '../db/schema/index.ts';
import { validateFields } from '../kit/validate-body.ts';
import { HttpError } from '../lib/http-error.ts';
import { dataFeedStore } from '../modules/data-feeds/repository.ts';
import { parseCron } from '../pipeline/ingest/cron.ts';
import type { DataFeedRow } from '../pipeline/ingest/run.ts';
import type { SecretBox } from '../pipeline/ingest/secret.ts';
import type { DateFormat } from './feed-exports.ts';

/** A demo feed and the moments its files arrive (uploaded, or pulled from its SFTP drop), in its date format. */
export type FeedSchedule = { feed: DataFeedRow; source: 'csv_upload' | 'sftp'; times: Date[]; format: DateFormat };

/**
 * A feed made the way `POST /api/data-feeds` makes one: the definition's defaults and schema, its
 * field rules, `checkFeed` and the schedule read by the cron matcher, then the store's `values`
 * (which encrypts the SFTP password). No pull is queued: the route's hook does that, and the demo's
 * SFTP feeds are paused once their runs are made.
 */
export async function createFeed(
  db: Db,
  secrets: SecretBox,
  clientId: number,
  at: Date,
  input: Partial<DataFeedBody>,
): Promise<DataFeedRow> {
  const body: DataFeedBody = { ...dataFeedResource.defaults, ...dataFeedResource.createSchema.parse(input) };
  await validateFields(body, dataFeedResource.rules, { names: dataFeedResource.labels });
  const errors = checkFeed({ ...body, field_mapping: body.field_mapping ?? null });
  if (body.schedule_cron) parseCron(body.schedule_cron);
  if (Object.keys(errors).length > 0) throw new HttpError(422, `Demo feed ${body.name}: ${JSON.stringify(errors)}`, errors);
  const [row] = await db
    .insert(dataFeeds)
    .values({
      ...(dataFeedStore(secrets).values(body, { clientId }) as typeof dataFeeds.$inferInsert),
      clientId,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}
