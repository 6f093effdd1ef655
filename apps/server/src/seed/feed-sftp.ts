import type { FeedTriggerEvent } from '@admin/shared';
import type { Db } from '../db/client.ts';
import { nextRun, parseCron } from '../pipeline/ingest/cron.ts';
import type { SecretBox } from '../pipeline/ingest/secret.ts';
import { localTimeOf } from '../pipeline/schedule.ts';
import { FIELD_MAPPING } from './feed-exports.ts';
import { createFeed, type FeedSchedule } from './feed-records.ts';
import type { seededRandom } from './random.ts';

const HOUR_MS = 60 * 60 * 1000;
/** SFTP drops twice a month, on the 1st and the 15th (at the hour `sftpDropFeed` picks). */
const SFTP_DAYS = '1,15';

/**
 * A client's SFTP drop from its industry's second business system, for its second survey if it has
 * one, and its pulls over the last four weeks, the latest at least a day and a half old.
 */
export async function sftpDropFeed(
  db: Db,
  secrets: SecretBox,
  rnd: ReturnType<typeof seededRandom>,
  of: {
    client: { id: number; name: string; timezone: string };
    surveyId: number;
    system: [string, FeedTriggerEvent, string];
    created: Date;
    uploadDays: Date[];
    anchor: Date;
  },
): Promise<FeedSchedule> {
  const { client, created, anchor } = of;
  const [vendor, trigger, what] = of.system;
  // The drop's local hour is the uploads' moment (18:00 UTC) in the client's zone, so all the
  // drops of a day fall due together and the send engine needs one pass for them.
  const hour = Math.floor(localTimeOf(of.uploadDays[0] ?? anchor, client.timezone).minute / 60);
  const cronText = `0 ${hour} ${SFTP_DAYS} * *`;
  const host = `sftp.${client.name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;
  const sftpFeed = await createFeed(db, secrets, client.id, created, {
    name: `${vendor} ${what.toLowerCase()} (SFTP)`,
    source_type: 'sftp',
    vendor,
    trigger_event: trigger,
    survey_id: of.surveyId,
    location_mode: 'column',
    schedule_cron: cronText,
    sftp_host: host,
    sftp_port: 22,
    sftp_path: '/outbound/surveys',
    sftp_username: 'reviews',
    sftp_password: `demo-${rnd.int(100000, 999999)}`,
    file_name_pattern: 'export_*.csv',
    date_format: 'yyyy-MM-dd',
    field_mapping: FIELD_MAPPING,
  });
  const pulls: Date[] = [];
  const cron = parseCron(cronText);
  for (let at = nextRun(cron, created, client.timezone); at && at.getTime() < anchor.getTime() - 36 * HOUR_MS; ) {
    pulls.push(at);
    at = nextRun(cron, at, client.timezone);
  }
  return { feed: sftpFeed, source: 'sftp', times: pulls, format: 'yyyy-MM-dd' };
}
