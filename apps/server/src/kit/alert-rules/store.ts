import { eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clients } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-error.ts';
import { clientScopeOf, inClientScope } from '../current-client.ts';
import { allOf, containsPattern, inList, type KeyColumn } from '../keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../keyset-page.ts';
import type { ResourceStore } from '../resource-store.ts';
import { countMatching } from '../totals.ts';
import { checkAlertRule } from './check.ts';
import type { AlertRuleKind, AlertRuleTable, RuleBodyBase, RuleQueryBase } from './kind.ts';
import { setRecipients } from './recipients.ts';

/** One rule with its client's name, the names it lists and its kind's extras. */
export async function loadAlertRule<T extends AlertRuleTable, Rec, Body extends RuleBodyBase, Query extends RuleQueryBase, Extras>(
  kind: AlertRuleKind<T, Rec, Body, Query, Extras>,
  db: Db,
  id: number,
): Promise<Rec> {
  const table: AlertRuleTable = kind.rules;
  const [found] = await db
    .select({ row: table, clientName: clients.name })
    .from(table)
    .leftJoin(clients, eq(clients.id, table.clientId))
    .where(eq(table.id, id))
    .limit(1);
  if (!found) throw notFound(kind.notFound);
  // The select is typed by the union of rule tables; its row is this kind's table's.
  const row = found.row as T['$inferSelect'];
  return kind.toRecord(row, found.clientName, (await kind.extrasOf(db, [row])).get(id));
}

/**
 * The kit's store for a kind of alert rule: the rules of the current client or of the clients
 * chosen in the filter, filtered by status, location (a rule for every location is one for the
 * location chosen too), recipient and name, plus the kind's own filters; keyset pages; recipient
 * users written beside the row; the checks of check.ts.
 */
export function alertRuleStore<T extends AlertRuleTable, Rec, Body extends RuleBodyBase, Query extends RuleQueryBase, Extras>(
  kind: AlertRuleKind<T, Rec, Body, Query, Extras>,
): ResourceStore<Rec, T['$inferSelect'], Body, Query, number | null> {
  const table: AlertRuleTable = kind.rules;
  const byId: KeyColumn = { expr: sql`${table.id}`, cast: 'integer' };

  function where(q: Query, clientId: number | null): SQL | undefined {
    const like = containsPattern(q.q);
    const recipientIds = (q.recipient ?? []).map(Number);
    return allOf([
      inClientScope(table.clientId, clientScopeOf(q.client, clientId)),
      inList(sql`${table.status}`, q.status),
      ...kind.filters(q),
      q.location && q.location.length > 0
        ? sql`(${table.locationIds} = '{}' or ${table.locationIds} && ${sql.param(q.location)}::text[])`
        : undefined,
      recipientIds.length > 0
        ? sql`exists (select 1 from ${kind.recipients} r where r.rule_id = ${table.id} and r.user_id = any(${sql.param(recipientIds)}::integer[]))`
        : undefined,
      like ? sql`${table.name} ilike ${like}` : undefined,
    ]);
  }

  return {
    table: kind.rules,
    toRecord: (row, clientName) => kind.toRecord(row, clientName),
    async list(db, q, clientId, limit) {
      const sort = resourceSort<string>(kind.sorts, byId, q, { sort: 'name', order: kind.definition.defaultSort.order });
      const { page, nextCursor } = await keysetPage({ ...sort, where: where(q, clientId), cursor: q.cursor, limit }, (p) =>
        db
          .select({ row: table, clientName: clients.name, ...p.fields })
          .from(table)
          .leftJoin(clients, eq(clients.id, table.clientId))
          .where(p.where)
          .orderBy(...p.orderBy)
          .limit(p.limit),
      );
      // The select is typed by the union of rule tables; its rows are this kind's table's.
      const listed = page.map((r) => ({ id: r.row.id, row: r.row as T['$inferSelect'], clientName: r.clientName }));
      const extras = await kind.extrasOf(
        db,
        listed.map((l) => l.row),
      );
      return { rows: listed.map((l) => kind.toRecord(l.row, l.clientName, extras.get(l.id))), nextCursor };
    },
    count: (db, q, clientId) => countMatching(db, sql`from ${table}${whereClause(where(q, clientId))}`),
    values: (body) => kind.values(body),
    check: (db: Db, body: Partial<Body>, before: T['$inferSelect'] | null, request: FastifyRequest) =>
      checkAlertRule(kind, db, body, before, request),
    async afterWrite(tx, row, body) {
      if (body.recipient_user_ids) await setRecipients(tx, kind.recipients, row.id, body.recipient_user_ids);
    },
    reload: (db, id) => loadAlertRule(kind, db, Number(id)),
  };
}
