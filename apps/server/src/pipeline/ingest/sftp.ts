import { MAX_FEED_FILE_BYTES } from '@admin/shared/resources/data-feeds';
import { and, eq } from 'drizzle-orm';
import SftpClient from 'ssh2-sftp-client';
import type { Db } from '../../db/client.ts';
import { clients, dataFeedFiles, dataFeeds } from '../../db/schema/index.ts';
import type { Clock, Jobs } from '../types.ts';
import { nextRun, parseCron } from './cron.ts';
import { FeedFileError, parseFeedFile } from './parse.ts';
import { type DataFeedRow, type RunResult, runFeed } from './run.ts';
import type { SecretBox } from './secret.ts';

/** The queue of SFTP pulls: a feed's scheduled pulls and its Run now. */
export const FEED_PULL_QUEUE = 'feed.pull';
const CONNECT_TIMEOUT_MS = 20_000;

/** `invoices_*.csv` → a whole-name, case-insensitive match (`*` any characters, `?` one). */
export function fileMatcher(pattern: string | null): (name: string) => boolean {
  if (!pattern) return () => true;
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const re = new RegExp(`^${source}$`, 'i');
  return (name) => re.test(name);
}

export type PullDeps = { db: Db; clock: Clock; secrets: SecretBox };

/**
 * One SFTP pull of a feed: lists `sftp_path`, takes the regular files matching the feed's file
 * name pattern that it has not taken before (same name, size and modification time), oldest
 * first, and runs each through `runFeed`, which records the file as taken in the transaction that
 * starts its run, so a file is processed once even when two workers pull at the same time. A file
 * that is not readable CSV is taken with a failed run saying why. Files stay on the server.
 */
export async function pullFeed(deps: PullDeps, feed: DataFeedRow): Promise<RunResult[]> {
  if (!feed.sftpHost || !feed.sftpPasswordEnc) throw new Error(`Feed ${feed.name} has no SFTP host or password`);
  const sftp = new SftpClient();
  const results: RunResult[] = [];
  await sftp.connect({
    host: feed.sftpHost,
    port: feed.sftpPort,
    username: feed.sftpUsername ?? '',
    password: deps.secrets.decrypt(feed.sftpPasswordEnc),
    readyTimeout: CONNECT_TIMEOUT_MS,
  });
  try {
    const dir = feed.sftpPath ?? '.';
    const matches = fileMatcher(feed.filePattern);
    const listed = (await sftp.list(dir)).filter((f) => f.type === '-' && matches(f.name));
    const taken = await deps.db
      .select({ name: dataFeedFiles.name, size: dataFeedFiles.size, modifiedAt: dataFeedFiles.modifiedAt })
      .from(dataFeedFiles)
      .where(eq(dataFeedFiles.dataFeedId, feed.id));
    const key = (name: string, size: number, modified: number) => `${name}\u0000${size}\u0000${modified}`;
    const seen = new Set(taken.map((t) => key(t.name, t.size, t.modifiedAt.getTime())));
    const fresh = listed
      .map((f) => ({ name: f.name, size: f.size, modifiedAt: new Date(Math.floor(f.modifyTime / 1000) * 1000) }))
      .filter((f) => !seen.has(key(f.name, f.size, f.modifiedAt.getTime())))
      .sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime() || a.name.localeCompare(b.name));
    for (const file of fresh) {
      // Too big to read into memory: taken, with a failed run saying so, and never downloaded.
      if (file.size > MAX_FEED_FILE_BYTES) {
        const mb = (n: number) => Math.ceil(n / 1_000_000);
        const error = `The file is ${mb(file.size)} MB; a feed file may be at most ${mb(MAX_FEED_FILE_BYTES)} MB. Split it into smaller files.`;
        const result = await runFeed(deps, feed, { source: 'sftp', sourceName: file.name, records: [], startedBy: null, file, error });
        if (result) results.push(result);
        continue;
      }
      const content = await sftp.get(`${dir.replace(/\/$/, '')}/${file.name}`);
      const text = Buffer.isBuffer(content) ? content.toString('utf8') : String(content);
      let records: ReturnType<typeof parseFeedFile>['records'] = [];
      let error: string | undefined;
      try {
        records = parseFeedFile(text, { delimiter: feed.delimiter, hasHeader: feed.hasHeader }).records;
      } catch (err) {
        if (!(err instanceof FeedFileError)) throw err;
        error = err.message;
      }
      const result = await runFeed(deps, feed, {
        source: 'sftp',
        sourceName: file.name,
        records,
        startedBy: null,
        file,
        ...(error ? { error } : {}),
      });
      if (result) results.push(result);
    }
  } finally {
    await sftp.end();
  }
  return results;
}

/** When a feed's next scheduled pull is due (its client's time zone), or null when it has none. */
async function nextPullAt(db: Db, feed: DataFeedRow, after: Date): Promise<Date | null> {
  if (feed.sourceType !== 'sftp' || feed.status !== 'active' || !feed.scheduleCron) return null;
  const [client] = await db.select({ timeZone: clients.timezone }).from(clients).where(eq(clients.id, feed.clientId)).limit(1);
  return nextRun(parseCron(feed.scheduleCron), after, client?.timeZone ?? 'UTC');
}

/**
 * Queues a feed's next scheduled pull (in `tx` when given). The job's key names the feed and the
 * minute, so saving the feed twice or a pull rescheduling itself queues it once; a job whose
 * schedule changed since it was queued does nothing.
 */
export async function schedulePull(jobs: Jobs, db: Db, feed: DataFeedRow, after: Date, tx?: Db): Promise<void> {
  const at = await nextPullAt(tx ?? db, feed, after);
  if (!at) return;
  await jobs.enqueue(
    FEED_PULL_QUEUE,
    { feedId: feed.id, cron: feed.scheduleCron },
    { runAt: at, singletonKey: `feed-pull:${feed.id}:${at.toISOString()}`, ...(tx ? { tx } : {}) },
  );
}

/** Run now: one pull of the feed at once (at most one waiting per feed). */
export function pullNow(jobs: Jobs, feedId: number): Promise<number | null> {
  return jobs.enqueue(FEED_PULL_QUEUE, { feedId, now: true }, { singletonKey: `feed-pull-now:${feedId}`, maxAttempts: 3 });
}

/**
 * The pull job: a scheduled pull runs when the feed is still an active SFTP feed with the schedule
 * it was queued for, then queues the next; Run now pulls once. A failed connection is retried by
 * the queue with back-off.
 */
export function registerFeedPulls(jobs: Jobs, deps: PullDeps): void {
  jobs.register(
    FEED_PULL_QUEUE,
    async (payload, job) => {
      const feedId = Number(payload.feedId);
      const [feed] = await deps.db
        .select()
        .from(dataFeeds)
        .where(and(eq(dataFeeds.id, feedId), eq(dataFeeds.sourceType, 'sftp')))
        .limit(1);
      if (feed?.status !== 'active') return;
      const scheduled = payload.now !== true;
      if (scheduled && payload.cron !== feed.scheduleCron) return;
      try {
        await pullFeed(deps, feed);
      } finally {
        // The next scheduled pull is queued even when this one fails for good.
        if (scheduled) await schedulePull(jobs, deps.db, feed, job.now);
      }
    },
    { batchSize: 4 },
  );
}
