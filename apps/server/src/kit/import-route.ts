import { csvImportSchema, dataEnvelope, importResultSchema } from '@admin/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { checkImport } from './csv-import.ts';
import { requireWritableClient } from './current-client.ts';
import type { BaseRow, Client, ResourceDefinition, ResourceStore } from './resource-store.ts';
import { validated } from './validated.ts';

/** What the import shares with the resource's other routes (`resourceRoutes`). */
export type ImportContext = {
  noun: string;
  /** The unique field as its form labels it ('' without one). */
  uniqueLabel: string;
  /** Lower-case values of the unique field that the owner's rows already use. */
  usedValues(db: Db, owner: number, values: string[]): Promise<Set<string>>;
};

/**
 * `POST <path>/import`: a CSV of the definition's import columns, every line checked (rules,
 * uniqueness, the store's `importer`) before any is written, then inserted in batches of 500 in
 * one transaction with one audit entry.
 */
export function importRoute<Rec, Row extends BaseRow, Body extends Record<string, unknown>, Query, C extends Client>(
  app: FastifyInstance,
  def: ResourceDefinition<Rec, Body, Query>,
  store: ResourceStore<Rec, Row, Body, Query, C>,
  importColumns: readonly string[],
  { noun, uniqueLabel, usedValues }: ImportContext,
): void {
  const table = store.table;
  // The input guard names refused fields by the form's labels (plugins/input-guard.ts).
  const config = { labels: def.labels };
  app.post(
    `${def.path}/import`,
    { config, bodyLimit: 6 * 1024 * 1024, schema: { body: csvImportSchema, response: { 201: dataEnvelope(importResultSchema) } } },
    async (request, reply) => {
      const clientId = (await requireWritableClient(request)).id;
      const unique = def.unique;
      const importer = await store.importer?.(app.db, clientId);
      const lines = await checkImport({
        noun,
        csv: validated<z.infer<typeof csvImportSchema>>(request.body).csv,
        rules: Object.fromEntries(importColumns.flatMap((c) => (def.rules[c] ? [[c, def.rules[c]]] : []))),
        extraColumns: [...importColumns, ...(def.importExtraColumns ?? [])],
        names: def.labels,
        ...(importer ? { checkRow: (line: Record<string, string>) => importer.checkRow(line) } : {}),
        ...(unique
          ? { unique: { column: unique, label: uniqueLabel, taken: (values: string[]) => usedValues(app.db, clientId, values) } }
          : {}),
      });
      await app.db.transaction(async (tx) => {
        const values = lines.map((line) => ({
          ...store.values({ ...def.defaults, ...(importer ? importer.body(line) : line) } as Partial<Body>, { clientId }),
          clientId,
        }));
        for (let i = 0; i < values.length; i += 500) {
          const batch = tx.insert(table).values(values.slice(i, i + 500));
          if (!importer) {
            await batch;
            continue;
          }
          // PostgreSQL returns the rows of a multi-row VALUES insert in the order given.
          const ids = await batch.returning({ id: table.id });
          await importer.afterInsert(
            tx,
            ids.flatMap((r, j) => {
              const line = lines[i + j];
              return line ? [{ id: Number(r.id), line }] : [];
            }),
          );
        }
        await request.audit(
          {
            action: `${def.name}.import`,
            message: `Imported ${values.length} ${def.plural ?? `${noun}s`}`,
            clientId,
            entityType: def.name,
            after: { count: values.length },
          },
          tx,
        );
      });
      return reply.code(201).send({ data: { imported: lines.length, clientId } });
    },
  );
}
