import {
  dataEnvelope,
  directoryLabel,
  idParamSchema,
  LISTING_ACTION_LABELS,
  LISTING_URL_RULES,
  type Listing,
  listingDuplicateSchema,
  listingNoteSchema,
  listingSchema,
  listingStatusLabel,
  listingUrlSchema,
  listingVersionSchema,
  NOTE_MAX,
} from '@admin/shared';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { listings } from '../../db/schema/index.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { assertFresh } from '../../kit/status.ts';
import { validateFields } from '../../kit/validate-body.ts';
import { validated } from '../../kit/validated.ts';
import { conflict, fieldsRefused, notFound } from '../../lib/http-error.ts';
import { findListing } from './repository.ts';

type Row = typeof listings.$inferSelect;
type Change = Partial<typeof listings.$inferInsert>;
const labels = LISTING_ACTION_LABELS;
const answer = { 200: dataEnvelope(listingSchema) };

/**
 * The row actions (domain.md §12): Mark as mine / Not mine, Set listing URL, Flag duplicate and
 * Mark updated, on a listing of the tab's current client; each written only if the listing is
 * still as read (else 409), audited in its transaction with its before and after. A version sent
 * (`updated_at`) must be the listing's current one.
 */
export function listingActionRoutes(app: FastifyInstance): void {
  async function rowOf(request: FastifyRequest, id: number, version: string | undefined): Promise<Row> {
    const clientId = requireCurrentClientId(request);
    const [row] = await app.db
      .select()
      .from(listings)
      .where(and(eq(listings.clientId, clientId), eq(listings.id, id)))
      .limit(1);
    if (!row) throw notFound('Listing');
    if (version !== undefined) assertFresh(row.updatedAt, version, 'The listing');
    return row;
  }

  async function save(request: FastifyRequest, row: Row, action: string, change: Change): Promise<{ data: Listing }> {
    const now = app.clock.now();
    const pick = (r: Change | Row) => ({
      status: r.status,
      is_mine: r.isMine,
      listing_url: r.listingUrl,
      duplicate_of_id: r.duplicateOfId,
      note: r.note,
    });
    await app.db.transaction(async (tx) => {
      const done = await tx
        .update(listings)
        .set({ ...change, updatedAt: now })
        .where(and(eq(listings.id, row.id), eq(listings.updatedAt, row.updatedAt)))
        .returning({ id: listings.id });
      if (done.length === 0)
        throw conflict('The listing was changed by someone else (or rescanned) since you opened it. Reload it and try again.');
      const before = pick(row);
      const after = { ...before, ...Object.fromEntries(Object.entries(pick(change)).filter(([, v]) => v !== undefined)) };
      await request.audit(
        {
          action: `listing.${action}`,
          message: `Listing ${row.id} (${directoryLabel(row.directory)}): ${action.replace('_', ' ')}`,
          clientId: row.clientId,
          entityType: 'listing',
          entityId: row.id,
          before,
          after,
        },
        tx,
      );
    });
    const found = await findListing(app.db, row.clientId, row.id);
    if (!found) throw notFound('Listing');
    return { data: found };
  }

  const route = <B extends z.ZodType>(action: string, body: B, change: (row: Row, body: z.infer<B>) => Promise<Change> | Change) =>
    app.post(
      `/api/listings/:id/${action}`,
      { config: { labels }, schema: { params: idParamSchema, body: body.nullish(), response: answer } },
      async (request) => {
        const params = validated<{ id: number }>(request.params);
        // Every action's body is optional as a whole (its fields' rules say what is required).
        const input = validated<z.infer<B> & { updated_at?: string }>(request.body ?? {});
        const row = await rowOf(request, params.id, input.updated_at);
        return save(request, row, action.replace('-', '_'), await change(row, input));
      },
    );

  // A row without an external id holds no listing (not found, or not checked): nothing to call mine or not.
  const assertListed = (row: Row) => {
    if (row.externalId === null)
      throw conflict(`No listing was read on ${directoryLabel(row.directory)} for this location: there is nothing to mark.`);
  };
  // Mine: the listing is this location's; a suppressed one comes back as it was before Not mine.
  route('mine', listingVersionSchema, (row) => {
    assertListed(row);
    if (row.isMine === true) throw conflict('This listing is already marked as mine.');
    return { isMine: true, status: row.status === 'suppressed' ? 'needs_update' : row.status };
  });
  // Not mine: another business's listing; kept (the next scan knows it) but suppressed.
  route('not-mine', listingVersionSchema, (row) => {
    assertListed(row);
    if (row.isMine === false) throw conflict('This listing is already marked as not mine.');
    return { isMine: false, status: 'suppressed' };
  });
  route('url', listingUrlSchema, async (_row, body) => {
    const url = body.listing_url?.trim() ?? '';
    await validateFields({ listing_url: url }, { listing_url: LISTING_URL_RULES }, { names: labels });
    return { listingUrl: url };
  });
  // Flag duplicate: of another listing of the same location and directory (the best scored when none is named).
  route('duplicate', listingDuplicateSchema, async (row, body) => {
    if (row.status === 'duplicate') throw conflict('This listing is already flagged as a duplicate.');
    const named = body.duplicate_of_id ?? null;
    const [other] = await app.db
      .select({ id: listings.id })
      .from(listings)
      .where(
        and(
          eq(listings.locationId, row.locationId),
          eq(listings.directory, row.directory),
          ne(listings.id, row.id),
          named === null ? isNotNull(listings.externalId) : eq(listings.id, named),
        ),
      )
      .orderBy(sql`${listings.score} desc nulls last`, listings.id)
      .limit(1);
    if (!other && named !== null)
      throw fieldsRefused(
        {
          duplicate_of_id: [
            `The ${labels.duplicate_of_id} field must be another listing of this location on ${directoryLabel(row.directory)}`,
          ],
        },
        labels,
      );
    if (!other) throw conflict(`This location has no other listing on ${directoryLabel(row.directory)} for this one to duplicate.`);
    return { duplicateOfId: other.id, status: 'duplicate' };
  });
  // Mark updated: the fix was sent to the directory; pending until a scan finds every field right.
  route('updated', listingNoteSchema, (row, body) => {
    const note = body.note?.trim() ?? '';
    if (note.length > NOTE_MAX)
      throw fieldsRefused({ note: [`The ${labels.note} field may not be greater than ${NOTE_MAX} characters`] }, labels);
    if (row.status === 'not_found' || row.status === 'suppressed' || row.status === 'not_checked')
      throw conflict(`A listing that is ${listingStatusLabel(row.status).toLowerCase()} cannot be marked updated.`);
    return { status: 'pending_update', note: note === '' ? null : note };
  });
}
