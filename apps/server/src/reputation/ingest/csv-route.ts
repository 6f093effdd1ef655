import {
  CsvSyntaxError,
  dataEnvelope,
  MAX_REVIEW_IMPORT_LINES,
  parseCsv,
  REVIEW_CSV_COLUMNS,
  type ReviewCsvColumn,
  type ReviewImportAnswer,
  reviewImportAnswerSchema,
  reviewImportSchema,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Db, rowsOf } from '../../db/client.ts';
import { requireWritableClient } from '../../kit/current-client.ts';
import { HttpError } from '../../lib/http-error.ts';
import { countsText } from './api-route.ts';
import { ingestReviews } from './ingest.ts';

/** Which CSV column an item field's message belongs to. */
const COLUMN_OF: Record<string, ReviewCsvColumn | 'line'> = {
  review: 'line',
  reviewId: 'review_id',
  site: 'site',
  locationId: 'location',
  reviewer: 'reviewer',
  starRating: 'rating',
  recommend: 'recommend',
  comment: 'comment',
  createTime: 'created',
  updateTime: 'updated',
  reviewReply: 'reply',
  url: 'url',
};
const LOCATION_ID = /^[a-f0-9]{24}$/;

/** The file's records, or a 422 naming the line where it stops being CSV (an unclosed quote would swallow the rest). */
function readCsv(csv: string): { columns: string[]; rows: { line: number; cells: string[] }[] } {
  let records: string[][];
  try {
    records = parseCsv(csv);
  } catch (err) {
    if (err instanceof CsvSyntaxError) {
      throw new HttpError(422, `Nothing was read: line ${err.line}: ${err.message}.`, { csv: [`Line ${err.line}: ${err.message}`] });
    }
    throw err;
  }
  const [header, ...rows] = records;
  const columns = (header ?? []).map((h) => h.trim().toLowerCase());
  const unknown = columns.filter((c) => !(REVIEW_CSV_COLUMNS as readonly string[]).includes(c));
  if (!header || rows.length === 0 || unknown.length > 0 || !columns.includes('review_id')) {
    throw new HttpError(422, 'The file is not a review import.', {
      csv: [
        !header || rows.length === 0
          ? 'The CSV file needs a header row and at least one review'
          : unknown.length > 0
            ? `Unknown columns: ${unknown.join(', ')}. Allowed: ${REVIEW_CSV_COLUMNS.join(', ')}`
            : 'The CSV file needs a review_id column',
      ],
    });
  }
  if (rows.length > MAX_REVIEW_IMPORT_LINES) {
    throw new HttpError(413, `At most ${MAX_REVIEW_IMPORT_LINES} reviews per file.`, {
      csv: [`The CSV file may hold at most ${MAX_REVIEW_IMPORT_LINES} reviews`],
    });
  }
  // Blank lines are skipped; each record keeps its place in the file (the header is line 1).
  const kept = rows.map((cells, i) => ({ line: i + 2, cells })).filter((r) => r.cells.some((cell) => cell.trim() !== ''));
  return { columns, rows: kept };
}

/** The client's locations named by name or external code (case-insensitive), as id by lower-cased word. */
async function locationsNamed(db: Db, clientId: number, words: string[]): Promise<Map<string, string>> {
  if (words.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`select _id, lower(locationname) as name, lower(external_code) as code from locations
      where client_id = ${clientId}
        and (lower(locationname) in (select jsonb_array_elements_text(${JSON.stringify(words)}::jsonb))
          or lower(external_code) in (select jsonb_array_elements_text(${JSON.stringify(words)}::jsonb)))
      order by _id`),
  );
  const found = new Map<string, string>();
  for (const r of rows) {
    for (const w of [r.code, r.name]) if (typeof w === 'string' && !found.has(w)) found.set(w, String(r._id));
  }
  return found;
}

/**
 * `POST /api/reviews/import` (issue 21, item 1, the Reputation Panel's import): the current
 * client's reviews from a CSV, first as a dry run (`dry_run: true`: what Import would do, line by
 * line, nothing kept), then for real. The same rules and function as the API (`ingestReviews`): a
 * refused line is skipped alone.
 */
export const reviewImportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/reviews/import',
    {
      bodyLimit: 6 * 1024 * 1024,
      config: { labels: { csv: 'CSV file', dry_run: 'Dry run' } },
      schema: { body: reviewImportSchema, response: { 200: dataEnvelope(reviewImportAnswerSchema) } },
    },
    async (request) => {
      const client = await requireWritableClient(request);
      const { columns, rows } = readCsv(request.body.csv);
      const lines = rows.map((r) => Object.fromEntries(columns.map((c, j) => [c, (r.cells[j] ?? '').trim()])) as Record<string, string>);
      const words = [...new Set(lines.map((l) => l.location ?? '').filter((w) => w !== '' && !LOCATION_ID.test(w)))];
      const named = await locationsNamed(
        app.db,
        client.id,
        words.map((w) => w.toLowerCase()),
      );
      const items = lines.map((l) => {
        const location = l.location ?? '';
        const reply = l.reply ? { comment: l.reply, updateTime: l.replied || undefined } : undefined;
        return {
          reviewId: l.review_id,
          site: l.site || undefined,
          locationId: LOCATION_ID.test(location) ? location : (named.get(location.toLowerCase()) ?? location),
          reviewer: { displayName: l.reviewer ?? '' },
          starRating: l.rating || undefined,
          recommend: l.recommend || undefined,
          comment: l.comment || undefined,
          createTime: l.created || undefined,
          updateTime: l.updated || undefined,
          reviewReply: reply,
          url: l.url || undefined,
        };
      });
      const dryRun = request.body.dry_run;
      const result = await ingestReviews(
        app.db,
        {
          clientId: client.id,
          source: 'csv',
          now: app.clock.now(),
          dryRun,
          onWritten: (tx, counts) =>
            request.audit(
              {
                action: 'reviews.import',
                message: `Imported reviews from a CSV file: ${countsText(counts)}`,
                clientId: client.id,
                entityType: 'review',
                after: counts,
              },
              tx,
            ),
        },
        items,
      );
      const answer: ReviewImportAnswer = {
        dryRun,
        counts: result.counts,
        lines: result.reviews.map((r) => ({
          line: rows[r.index]?.line ?? r.index + 2,
          externalId: r.externalId,
          outcome: r.outcome,
          errors: Object.fromEntries(Object.entries(r.errors).map(([field, messages]) => [COLUMN_OF[field] ?? field, messages])),
        })),
      };
      return { data: answer };
    },
  );
};
