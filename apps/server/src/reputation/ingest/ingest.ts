import {
  type IncomingReview,
  REVIEW_FIELD_LABELS,
  REVIEW_JOBS,
  type ReviewAnswer,
  type ReviewCounts,
  type ReviewSource,
  readReviewItem,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { personnelMentions } from './personnel-mentions.ts';

/**
 * The one way reviews get in (issue 21, item 1; pipeline.md "Reviews"): the API, the CSV import,
 * the Google pull and the demo all call `ingestReviews`. Each item is read by the shared rules
 * (`readReviewItem`), its location must be the caller's client's, and the accepted ones are
 * written in one transaction with one upsert statement per chunk: idempotent on (site, external
 * id), a later copy overwrites (never an older one), an identical one is `unchanged`. Every review
 * inserted or changed gets the REVIEW_JOBS in the same transaction, so none is stored without them.
 * The personnel a review names (`personnel_ids`) are found before the write, with one read of the
 * names for the whole batch (personnel-mentions.ts), and written with the review's text.
 * docs/decisions/048-review-ingest.md says why.
 */

export type IngestOptions = {
  /** The caller's client; null = any client (a super-admin's API token), each review then belongs to its location's client. */
  clientId: number | null;
  source: ReviewSource;
  now: Date;
  /** Checks and answers as if written, then rolls everything back (the CSV import's first step). */
  dryRun?: boolean;
  /** Runs in the writing transaction when something was written (the audit entry of the caller). */
  onWritten?: (tx: Db, counts: ReviewCounts) => Promise<void>;
};

export type IngestResult = { counts: ReviewCounts; reviews: ReviewAnswer[] };

/** Reviews one upsert statement carries. */
const CHUNK = 1000;

class DryRunDone extends Error {}

type Accepted = { index: number; review: IncomingReview; clientId: number; personnelIds: number[] };

const keyOf = (clientId: number, site: string, externalId: string) => `${clientId}\u0000${site}\u0000${externalId}`;

function sentimentOf(r: IncomingReview): string | null {
  if (r.recommend !== null) return r.recommend ? 'positive' : 'negative';
  if (r.rating === null) return null;
  return r.rating >= 4 ? 'positive' : r.rating === 3 ? 'neutral' : 'negative';
}

/** Each location's client, for the ids given (unknown ids are absent). */
async function clientsOfLocations(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`select _id, client_id from locations
      where _id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`),
  );
  return new Map(rows.map((r) => [String(r._id), Number(r.client_id)]));
}

/** Upserts one chunk; answers the rows inserted or changed with whether each was new. */
async function upsert(tx: Db, chunk: Accepted[], source: ReviewSource, now: Date) {
  const records = chunk.map(({ review: r, clientId, personnelIds }) => ({
    client_id: clientId,
    location_id: r.locationId,
    site: r.site,
    external_id: r.externalId,
    author_name: r.authorName,
    rating: r.rating,
    recommend: r.recommend,
    text: r.text,
    url: r.url,
    review_created_at: r.reviewCreatedAt.toISOString(),
    review_updated_at: r.reviewUpdatedAt?.toISOString() ?? null,
    reply_text: r.replyText,
    replied_at: r.repliedAt?.toISOString() ?? null,
    sentiment: sentimentOf(r),
    personnel_ids: personnelIds,
  }));
  const at = now.toISOString();
  // Each client's copy of a site's review is its own (one client can never hold another's), and
  // an older copy (say, a pull that lags the API) never overwrites a newer one.
  const result = await tx.execute(sql`
    insert into reviews (client_id, location_id, site, external_id, author_name, rating, recommend, text, url,
      review_created_at, review_updated_at, reply_text, replied_at, sentiment, personnel_ids, source, fetched_at, created_at, updated_at)
    select client_id, location_id, site, external_id, author_name, rating, recommend, text, url,
      review_created_at, review_updated_at, reply_text, replied_at, sentiment, coalesce(personnel_ids, '{}'), ${source}, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(client_id int, location_id text, site text, external_id text,
      author_name text, rating smallint, recommend boolean, text text, url text, review_created_at timestamptz,
      review_updated_at timestamptz, reply_text text, replied_at timestamptz, sentiment text, personnel_ids int[])
    on conflict (client_id, site, external_id) do update set
      location_id = excluded.location_id, author_name = excluded.author_name, rating = excluded.rating,
      recommend = excluded.recommend, text = excluded.text, url = excluded.url,
      review_created_at = excluded.review_created_at, review_updated_at = excluded.review_updated_at,
      reply_text = excluded.reply_text, replied_at = excluded.replied_at, sentiment = excluded.sentiment,
      personnel_ids = excluded.personnel_ids, fetched_at = excluded.fetched_at, updated_at = excluded.updated_at
    where coalesce(excluded.review_updated_at, excluded.review_created_at) >= coalesce(reviews.review_updated_at, reviews.review_created_at)
      and (reviews.location_id, reviews.author_name, reviews.rating, reviews.recommend, reviews.text, reviews.url,
        reviews.review_created_at, reviews.review_updated_at, reviews.reply_text, reviews.replied_at)
      is distinct from (excluded.location_id, excluded.author_name, excluded.rating, excluded.recommend, excluded.text,
        excluded.url, excluded.review_created_at, excluded.review_updated_at, excluded.reply_text, excluded.replied_at)
    returning id, client_id, site, external_id, (xmax = 0) as inserted`);
  return rowsOf(result).map((r) => ({
    id: Number(r.id),
    key: keyOf(Number(r.client_id), String(r.site), String(r.external_id)),
    inserted: r.inserted === true,
  }));
}

/** The rows already stored under these keys (those the upsert left alone), with their client. */
async function storedOf(tx: Db, chunk: Accepted[]): Promise<Map<string, { id: number; clientId: number }>> {
  const keys = chunk.map((a) => ({ client_id: a.clientId, site: a.review.site, external_id: a.review.externalId }));
  const rows = rowsOf(
    await tx.execute(sql`select r.id, r.site, r.external_id, r.client_id from reviews r
      join jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(client_id int, site text, external_id text)
        on r.client_id = k.client_id and r.site = k.site and r.external_id = k.external_id`),
  );
  return new Map(
    rows.map((r) => [
      keyOf(Number(r.client_id), String(r.site), String(r.external_id)),
      { id: Number(r.id), clientId: Number(r.client_id) },
    ]),
  );
}

/**
 * The REVIEW_JOBS of every review written, in one statement with `insertJob`'s semantics
 * (pipeline/queue.ts): a job whose singleton key is pending or running already is not added twice;
 * one that finished no longer holds the key, so a later update of the review enqueues again.
 */
export async function enqueueReviewJobs(tx: Db, reviewIds: number[], now: Date): Promise<void> {
  if (reviewIds.length === 0) return;
  const at = now.toISOString();
  await tx.execute(sql`
    insert into jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at)
    select q.name, jsonb_build_object('reviewId', r.id::bigint), 'pending', ${at}::timestamptz, 5, q.name || ':' || r.id, ${at}::timestamptz
    from jsonb_array_elements_text(${JSON.stringify(reviewIds)}::jsonb) as r(id)
      cross join jsonb_array_elements_text(${JSON.stringify(REVIEW_JOBS)}::jsonb) as q(name)
    on conflict (singleton_key) where status in ('pending', 'running') and singleton_key is not null do nothing`);
}

const refused = (index: number, externalId: string | null, errors: Record<string, string[]>): ReviewAnswer => ({
  index,
  externalId,
  outcome: 'refused',
  id: null,
  errors,
});

/** Reads every item, refuses what breaks a rule (alone), writes the rest at once; answers per item in the order given. */
export async function ingestReviews(db: Db, options: IngestOptions, items: readonly unknown[]): Promise<IngestResult> {
  const answers: ReviewAnswer[] = [];
  const read: { index: number; review: IncomingReview }[] = [];
  const firstOf = new Map<string, number>();
  items.forEach((raw, index) => {
    const r = readReviewItem(raw, options.now);
    if (!r.ok) {
      const id = typeof raw === 'object' && raw !== null && 'reviewId' in raw && typeof raw.reviewId === 'string' ? raw.reviewId : null;
      answers[index] = refused(index, id, r.errors);
      return;
    }
    // The same site id twice in one batch is one review sent twice, whichever location it names.
    const key = `${r.review.site}\u0000${r.review.externalId}`;
    const first = firstOf.get(key);
    if (first !== undefined) {
      answers[index] = refused(index, r.review.externalId, {
        reviewId: [`The ${REVIEW_FIELD_LABELS.reviewId} field repeats review ${first + 1} of this batch on the same site`],
      });
      return;
    }
    firstOf.set(key, index);
    read.push({ index, review: r.review });
  });

  const owners = await clientsOfLocations(db, [...new Set(read.map((r) => r.review.locationId))]);
  const accepted: Accepted[] = [];
  for (const r of read) {
    const owner = owners.get(r.review.locationId);
    if (owner === undefined || (options.clientId !== null && owner !== options.clientId)) {
      answers[r.index] = refused(r.index, r.review.externalId, {
        locationId: [`The ${REVIEW_FIELD_LABELS.locationId} field must name one of this client's locations`],
      });
    } else accepted.push({ ...r, clientId: owner, personnelIds: [] });
  }
  // The personnel each review names (personnel-mentions.ts): one read of the names for the batch.
  const mentions = await personnelMentions(
    db,
    accepted.map((a) => ({ clientId: a.clientId, locationId: a.review.locationId, text: a.review.text })),
  );
  accepted.forEach((a, i) => {
    a.personnelIds = mentions[i] ?? [];
  });
  // One order for every writer, so two batches that share reviews lock them in the same order.
  accepted.sort((a, b) =>
    keyOf(a.clientId, a.review.site, a.review.externalId) < keyOf(b.clientId, b.review.site, b.review.externalId) ? -1 : 1,
  );

  const write = async (tx: Db) => {
    const written: number[] = [];
    for (let i = 0; i < accepted.length; i += CHUNK) {
      const chunk = accepted.slice(i, i + CHUNK);
      const changed = new Map((await upsert(tx, chunk, options.source, options.now)).map((c) => [c.key, c]));
      const left = chunk.filter((a) => !changed.has(keyOf(a.clientId, a.review.site, a.review.externalId)));
      const stored = left.length > 0 ? await storedOf(tx, left) : new Map<string, { id: number; clientId: number }>();
      for (const a of chunk) {
        const key = keyOf(a.clientId, a.review.site, a.review.externalId);
        const c = changed.get(key);
        const s = stored.get(key);
        if (c) {
          written.push(c.id);
          answers[a.index] = {
            index: a.index,
            externalId: a.review.externalId,
            outcome: c.inserted ? 'created' : 'updated',
            id: c.id,
            errors: {},
          };
        } else if (s && s.clientId === a.clientId) {
          answers[a.index] = { index: a.index, externalId: a.review.externalId, outcome: 'unchanged', id: s.id, errors: {} };
        } else {
          answers[a.index] = refused(a.index, a.review.externalId, {
            // Only when the stored row changed between the upsert and this read: sent again, it is written.
            reviewId: [`The ${REVIEW_FIELD_LABELS.reviewId} field names a review that changed while this batch was written; send it again`],
          });
        }
      }
    }
    await enqueueReviewJobs(tx, written, options.now);
    if (written.length > 0 && options.onWritten) await options.onWritten(tx, countsOf(answers));
    if (options.dryRun) throw new DryRunDone();
  };
  if (accepted.length > 0) {
    try {
      await db.transaction(write);
    } catch (err) {
      if (!(err instanceof DryRunDone)) throw err;
      // A dry run answers the ids of a transaction that was rolled back: none of them exists.
      for (const a of answers) if (a && a.outcome !== 'unchanged') a.id = null;
    }
  }
  return { counts: countsOf(answers), reviews: answers };
}

export function countsOf(answers: readonly ReviewAnswer[]): ReviewCounts {
  const counts: ReviewCounts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const a of answers) if (a) counts[a.outcome] += 1;
  return counts;
}
