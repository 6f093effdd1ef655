import type { FeedTriggerEvent } from '@admin/shared';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../pipeline/ingest/secret.ts';
import { type DateFormat, FIELD_MAPPING } from './feed-exports.ts';
import { createFeed, type FeedSchedule } from './feed-records.ts';
import type { seededRandom } from './random.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A client's CSV-upload feed from its industry's business system, and its uploads: the first upload
 * day and one of the later ones (small businesses upload when they think of it), then a last file a
 * few hours before start-up, whose invitations are the queue.
 */
export async function csvUploadFeed(
  db: Db,
  secrets: SecretBox,
  rnd: ReturnType<typeof seededRandom>,
  of: {
    clientId: number;
    index: number;
    surveyId: number;
    system: [string, FeedTriggerEvent, string];
    created: Date;
    uploadDays: Date[];
    anchor: Date;
  },
): Promise<FeedSchedule> {
  const { uploadDays, anchor } = of;
  const [csvVendor, csvTrigger, csvWhat] = of.system;
  const csvFormat: DateFormat = of.index % 2 === 0 ? 'MM/dd/yyyy' : 'yyyy-MM-dd';
  const csvFeed = await createFeed(db, secrets, of.clientId, of.created, {
    name: `${csvVendor} ${csvWhat.toLowerCase()}`,
    source_type: 'csv_upload',
    vendor: csvVendor,
    trigger_event: csvTrigger,
    survey_id: of.surveyId,
    location_mode: 'column',
    date_format: csvFormat,
    field_mapping: FIELD_MAPPING,
  });
  const later = rnd.int(1, uploadDays.length - 1);
  const uploads = uploadDays.filter((_, i) => i === 0 || i === later);
  uploads.push(new Date(Math.floor(anchor.getTime() - (2 + rnd.next() * 8) * HOUR_MS)));
  return { feed: csvFeed, source: 'csv_upload', times: uploads, format: csvFormat };
}
