import { MAX_FEED_FILE_BYTES } from '@admin/shared/resources/data-feeds';
import { and, eq } from 'drizzle-orm';
import SftpClient from 'ssh2-sftp-client';
import type { Db } from '../../db/client.ts';
import { clients, dataFeedFiles, dataFeeds, systemLogs } from '../../db/schema/index.ts';
import { OutboundAddressError, sftpConnectAddress } from '../../lib/outbound-address.ts';
import type { Jobs } from '../types.ts';
import { nextRun, parseCron } from './cron.ts';
import { FeedFileError, tooBigMessage } from './parse.ts';
import { type DataFeedRow, failedRun, receiveFile } from './run.ts';
import type { RunDeps, TakenFile } from './run-store.ts';
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

export type PullDeps = RunDeps & {
  secrets: SecretBox;
  /** SFTP_ALLOW_PRIVATE: the feed's host may be on the server's own network (lib/outbound-address.ts). */
  allowPrivateHosts: boolean;
};

/** Why a pull could not list the feed's folder, in words for Survey Manager Logs and the feed. */
function pullFailure(err: unknown, feed: DataFeedRow): string {
  if (err instanceof OutboundAddressError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  const where = `${feed.sftpHost ?? ''}:${feed.sftpPort}`;
  if (/authentication/i.test(message)) return `The SFTP server at ${where} refused the user name or password.`;
  if (/ECONNREFUSED/.test(message)) return `Could not connect to the SFTP server at ${where}: nothing answers on that port.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return `Could not connect to the SFTP server: ${feed.sftpHost ?? ''} does not resolve.`;
  if (/timed? ?out/i.test(message)) return `Could not connect to the SFTP server at ${where}: it did not answer in time.`;
  if (/No such file/i.test(message)) return `The SFTP folder ${feed.sftpPath ?? '.'} does not exist on ${where}.`;
  return `The SFTP pull from ${where} failed: ${message}`;
}

/** A failed pull on System Logs, as a warning naming the feed and why. */
async function logPullFailure(deps: PullDeps, feed: DataFeedRow, reason: string, runId: number | null): Promise<void> {
  await deps.db.insert(systemLogs).values({
    level: 'warn',
    service: 'pipeline',
    action: 'data_feed.pull_failed',
    message: `SFTP pull of feed ${feed.name} failed: ${reason}`,
    clientId: feed.clientId,
    entityType: 'data_feed',
    entityId: String(feed.id),
    after: runId === null ? null : { run_id: runId },
    at: deps.clock.now(),
  });
}

export type PullResult = { runIds: number[]; error: string | null };

/**
 * One SFTP pull of a feed: checks the host's address (lib/outbound-address.ts), lists `sftp_path`,
 * and receives each regular file matching the feed's pattern that it has not taken before (same
 * name, size and modification time), oldest first, as a run (`receiveFile`: streamed in batches,
 * recorded taken in the transaction that marks it received, so a file is taken once even when two
 * workers pull at once, and a pull cut off part-way takes it again next time). The feed-run loop
 * admits the rows. A pull that cannot connect or list is a failed run saying why, a System Logs
 * warning and the feed's last error. Files stay on the server.
 */
export async function pullFeed(deps: PullDeps, feed: DataFeedRow): Promise<PullResult> {
  const start = (sourceName: string) => ({ source: 'sftp' as const, sourceName, startedBy: null });
  const sftp = new SftpClient();
  const dir = feed.sftpPath ?? '.';
  let fresh: TakenFile[];
  try {
    if (!feed.sftpHost || !feed.sftpPasswordEnc) throw new Error('The feed has no SFTP host or password.');
    const host = await sftpConnectAddress(feed.sftpHost, { allowPrivate: deps.allowPrivateHosts });
    await sftp.connect({
      host,
      port: feed.sftpPort,
      username: feed.sftpUsername ?? '',
      password: deps.secrets.decrypt(feed.sftpPasswordEnc),
      readyTimeout: CONNECT_TIMEOUT_MS,
    });
    fresh = await freshFiles(deps, feed, await sftp.list(dir));
  } catch (err) {
    await sftp.end().catch(() => undefined);
    const reason = pullFailure(err, feed);
    const runId = await failedRun(deps, feed, start(`Pull from ${feed.sftpHost ?? 'SFTP'}`), reason);
    await logPullFailure(deps, feed, reason, runId);
    return { runIds: [runId], error: reason };
  }
  const runIds: number[] = [];
  try {
    for (const file of fresh) {
      // Too big to take: taken, with a failed run saying so, and never downloaded.
      if (file.size > MAX_FEED_FILE_BYTES) {
        runIds.push(await failedRun(deps, feed, start(file.name), tooBigMessage(file.size), file));
        continue;
      }
      try {
        const input = sftp.createReadStream(`${dir.replace(/\/$/, '')}/${file.name}`) as AsyncIterable<Buffer>;
        const received = await receiveFile(deps, feed, start(file.name), { input, file });
        if (received) runIds.push(received.runId);
      } catch (err) {
        // An unreadable file failed its run and was taken: the pull goes on. Anything else (the
        // connection dropped) failed the run without taking the file: the next pull retries it.
        if (!(err instanceof FeedFileError)) {
          const reason = `${file.name}: ${pullFailure(err, feed)}`;
          await logPullFailure(deps, feed, reason, null);
          return { runIds, error: reason };
        }
      }
    }
  } finally {
    await sftp.end().catch(() => undefined);
  }
  return { runIds, error: null };
}

/** The listed files the feed has not taken yet, oldest first. */
async function freshFiles(deps: PullDeps, feed: DataFeedRow, listing: { type: string; name: string; size: number; modifyTime: number }[]) {
  const matches = fileMatcher(feed.filePattern);
  const taken = await deps.db
    .select({ name: dataFeedFiles.name, size: dataFeedFiles.size, modifiedAt: dataFeedFiles.modifiedAt })
    .from(dataFeedFiles)
    .where(eq(dataFeedFiles.dataFeedId, feed.id));
  const key = (name: string, size: number, modified: number) => `${name}\u0000${size}\u0000${modified}`;
  const seen = new Set(taken.map((t) => key(t.name, t.size, t.modifiedAt.getTime())));
  return listing
    .filter((f) => f.type === '-' && matches(f.name))
    .map((f) => ({ name: f.name, size: f.size, modifiedAt: new Date(Math.floor(f.modifyTime / 1000) * 1000) }))
    .filter((f) => !seen.has(key(f.name, f.size, f.modifiedAt.getTime())))
    .sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime() || a.name.localeCompare(b.name));
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
