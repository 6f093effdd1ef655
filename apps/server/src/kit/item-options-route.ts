import { type OptionsQuery, optionsAnswerSchema, optionsQuery } from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requireCurrentClientId } from './current-client.ts';
import { allOf, containsPattern } from './keyset.ts';
import type { BaseRow, Client, ResourceDefinition, ResourceStore } from './resource-store.ts';
import { validated } from './validated.ts';

/**
 * `GET <path>/options/<filter>` for each filter whose options are the values records use (`item`
 * filters without an `optionsPath`): the current client's distinct values of the store's column.
 */
export function itemOptionRoutes<Rec, Row extends BaseRow, Body, Query, C extends Client>(
  app: FastifyInstance,
  def: ResourceDefinition<Rec, Body, Query>,
  store: ResourceStore<Rec, Row, Body, Query, C>,
): void {
  const table = store.table;
  // Options of filters over the values records use: what was typed finds any of them, no cap.
  for (const [key, filter] of Object.entries(def.filters)) {
    if (!('item' in filter) || filter.optionsPath) continue;
    const column = store.optionColumns?.[key];
    if (!column) throw new Error(`${def.name}: the store names no column for the ${key} filter's options`);
    app.get(
      `${def.path}/options/${key}`,
      // Chosen values are the column's own, checked as the list's filter checks them.
      { schema: { querystring: optionsQuery(filter.item), response: { 200: optionsAnswerSchema } } },
      async (request) => {
        const q = validated<OptionsQuery>(request.query);
        const clientId = requireCurrentClientId(request);
        const like = containsPattern(q.q);
        const owner =
          def.scope === 'current-client-and-global'
            ? sql`(${table.clientId} = ${clientId} or ${table.clientId} is null)`
            : sql`${table.clientId} = ${clientId}`;
        const rows = await app.db
          .selectDistinct({ value: sql<string>`${column}` })
          .from(table)
          .where(allOf([owner, sql`${column} is not null`, like ? sql`${column} ilike ${like}` : undefined]))
          .orderBy(sql`${column}`)
          .limit(q.perPage + 1);
        const found = rows.slice(0, q.perPage).map((r) => r.value);
        const values = [...found, ...(q.value ?? []).filter((v) => !found.includes(v))];
        return { data: values.map((value) => ({ value, label: value })), more: rows.length > q.perPage };
      },
    );
  }
}
