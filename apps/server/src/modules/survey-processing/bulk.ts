import { dataEnvelope } from '@admin/shared';
import {
  bulkPreviewSchema,
  bulkResultSchema,
  bulkRetrySchema,
  bulkTargetSchema,
  failedInScope,
  PROCESSING_ACTION_LABELS,
  PROCESSING_CHANNEL_LABELS,
  PROCESSING_DATE_FIELDS,
  PROCESSING_STATUS_LABELS,
  type ProcessingItemFilters,
  processingItemResource,
} from '@admin/shared/resources/survey-processing';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { clients, surveyProcessingItems as items, locations, personnel, surveys } from '../../db/schema/index.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { conflict, fieldsRefused } from '../../lib/http-error.ts';
import { filtersWhere } from './repository.ts';

const def = processingItemResource;
const labels = PROCESSING_ACTION_LABELS;
const config = { labels };
const FAILED = sql`${items.status} = 'failed'`;

type Target = { ids?: number[] | undefined; filter?: Record<string, unknown> | undefined };

/** The list's filters from a bulk body's `filter` (the list query, without paging or sort). */
function filtersOf(filter: Record<string, unknown>): ProcessingItemFilters {
  const parsed = def.listQuerySchema.safeParse(filter);
  if (!parsed.success) throw fieldsRefused({ filter: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }, labels);
  const { sort: _s, order: _o, perPage: _p, cursor: _c, ...filters } = parsed.data;
  return filters;
}

/** The rows a bulk body names: the chosen ids, or the filter's; exactly one of the two. */
function targetOf({ ids, filter }: Target): { which: SQL | undefined; filters: ProcessingItemFilters | null } {
  if ((ids === undefined) === (filter === undefined))
    throw fieldsRefused({ ids: ['Choose invitations, or retry every failed one of the filter'] }, labels);
  if (ids) return { which: inArray(items.id, ids), filters: null };
  const filters = filtersOf(filter ?? {});
  return { which: filtersWhere(filters), filters };
}

/** "Lakeside", "Lakeside and Harbor", "Lakeside, Harbor, Summit and 4 more". */
function namesOf(names: string[], total = names.length): string {
  const shown = names.slice(0, 3);
  const more = total - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** The names of up to four of `ids` in `table`, and how many ids there are. */
async function named(db: Db, table: 'clients' | 'surveys' | 'locations' | 'personnel', ids: readonly (string | number)[]) {
  const sources = {
    clients: { from: clients, id: sql`${clients.id}`, name: sql<string>`${clients.name}` },
    surveys: { from: surveys, id: sql`${surveys.id}`, name: sql<string>`${surveys.name}` },
    locations: { from: locations, id: sql`${locations.id}`, name: sql<string>`${locations.locationname}` },
    personnel: {
      from: personnel,
      id: sql`${personnel.id}`,
      name: sql<string>`coalesce(${personnel.displayName}, ${personnel.firstName} || ' ' || ${personnel.lastName})`,
    },
  };
  const s = sources[table];
  const rows = await db.select({ name: s.name }).from(s.from).where(inList(s.id, ids)).orderBy(s.name).limit(4);
  return namesOf(
    rows.map((r) => r.name),
    Math.max(ids.length, rows.length),
  );
}

/**
 * A filter in words, as the confirmation and the audit row say it: the clients it reaches ("all
 * clients" without a Clients filter) and each other filter by its label ("Status: Failed").
 */
export async function describeFilters(db: Db, f: ProcessingItemFilters): Promise<{ scope: string; filters: string[] }> {
  const scope = f.client?.length ? await named(db, 'clients', f.client.map(Number)) : 'all clients';
  const L = def.filters;
  const parts: (string | undefined)[] = [
    f.location?.length ? `${L.location.label}: ${await named(db, 'locations', f.location)}` : undefined,
    f.survey?.length ? `${L.survey.label}: ${await named(db, 'surveys', f.survey.map(Number))}` : undefined,
    f.status?.length ? `${L.status.label}: ${f.status.map((s) => PROCESSING_STATUS_LABELS[s]).join(', ')}` : undefined,
    f.channel ? `${L.channel.label}: ${PROCESSING_CHANNEL_LABELS[f.channel]}` : undefined,
    f.personnel?.length ? `${L.personnel.label}: ${await named(db, 'personnel', f.personnel.map(Number))}` : undefined,
  ];
  if (f.startDate || f.endDate) {
    const on = PROCESSING_DATE_FIELDS.find((d) => d.value === (f.date_on ?? 'received'))?.label ?? 'Received';
    parts.push(`${on} ${[f.startDate && `from ${f.startDate}`, f.endDate && `to ${f.endDate}`].filter(Boolean).join(' ')}`);
  }
  if (f.q) parts.push(`Search: "${f.q}"`);
  return { scope, filters: parts.filter((p): p is string => p !== undefined) };
}

/** The scope of chosen invitations: the clients of those that would change. */
async function scopeOfRows(db: Db, which: SQL | undefined): Promise<string> {
  const rows = await db
    .selectDistinct({ id: items.clientId })
    .from(items)
    .where(allOf([FAILED, which]))
    .limit(1001);
  return rows.length === 0
    ? 'no client'
    : named(
        db,
        'clients',
        rows.map((r) => r.id),
      );
}

/** How many failed invitations the target finds, and in which clients, with its filters in words. */
async function previewOf(db: Db, body: Target) {
  const { which, filters } = targetOf(body);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(items)
    .where(allOf([FAILED, which]));
  const words = filters ? await describeFilters(db, filters) : { scope: await scopeOfRows(db, which), filters: [] };
  return { count: row?.count ?? 0, ...words };
}

/**
 * Survey Processing's bulk action, Retry failed, over chosen invitations or every one the list's
 * filter finds: the confirmation first asks `…/retry/preview` for the count and the scope ("3 failed
 * invitations in all clients", issue 19 item 2); the retry then changes exactly the count confirmed
 * (or nothing: 409) and its audit row names the filter in words.
 */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${def.path}/retry/preview`,
    { config, schema: { body: bulkTargetSchema, response: { 200: dataEnvelope(bulkPreviewSchema) } } },
    async (request) => ({ data: await previewOf(app.db, request.body) }),
  );

  // Only failed ones change, scheduled for now; the send engine sends them on its next pass.
  app.post(
    `${def.path}/retry`,
    { config, schema: { body: bulkRetrySchema, response: { 200: dataEnvelope(bulkResultSchema) } } },
    async (request) => {
      const { confirmed, ...target } = request.body;
      const { which } = targetOf(target);
      const preview = await previewOf(app.db, target);
      const at = app.clock.now();
      const changed = await app.db.transaction(async (tx) => {
        const rows = await tx
          .update(items)
          // Attempts start over (as Send now's do, pipeline/send.ts sendItemsNow): a failed one has used
          // them all, so the send engine would fail it again after one try, without back-off.
          .set({ status: 'scheduled', scheduledAt: at, attempts: 0, updatedAt: at })
          .where(allOf([FAILED, which]))
          .returning({ id: items.id, clientId: items.clientId });
        if (confirmed !== undefined && rows.length !== confirmed)
          throw conflict(
            `The filter now finds ${failedInScope(rows.length, preview.scope)}, not ${confirmed}: nothing was retried. Look again and confirm.`,
          );
        const clientIds = new Set(rows.map((r) => r.clientId));
        const described = [preview.scope, ...preview.filters];
        await request.audit(
          {
            action: 'survey_processing.retry_bulk',
            message: `Retried ${failedInScope(rows.length, preview.scope)}${preview.filters.length ? ` (${preview.filters.join('; ')})` : ''}`,
            entityType: 'survey_processing_item',
            clientId: clientIds.size === 1 ? [...clientIds][0] : null,
            after: {
              ids: rows.map((c) => c.id).slice(0, 1000),
              filter_described: described,
              ...(target.filter ? { filter: target.filter } : {}),
            },
          },
          tx,
        );
        return rows.length;
      });
      return { data: { changed } };
    },
  );
};
