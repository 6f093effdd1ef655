import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { type MovableClock, movableClock } from '../src/pipeline/clock.ts';
import { type AlertWorld, makeWorld } from './alerts-fixture.ts';
import { type DbKind, openTestDatabase } from './helpers.ts';

/** What an alert engine test works on: filled in before its tests, closed after them. */
export type AlertBed = { database: Database; app: FastifyInstance; world: AlertWorld; clock: MovableClock };

/**
 * Opens, for the enclosing `describe`, a database with the alerts' world (alerts-fixture.ts) and
 * the app on a clock the tests move (its jobs drained with `app.jobs.runDue()`); closes them after.
 */
export function alertBed(kind: DbKind, start: Date, tag: string = kind): AlertBed {
  const bed = { clock: movableClock(start) } as AlertBed;
  beforeAll(async () => {
    bed.database = await openTestDatabase(kind);
    bed.app = await buildApp(testConfig(), { database: bed.database, clock: bed.clock });
    await bed.app.ready();
    bed.world = await makeWorld(bed.database.db, tag);
  });
  afterAll(async () => {
    await bed.app?.close();
    await bed.database?.close();
  });
  return bed;
}
