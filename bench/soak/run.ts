/**
 * bench/soak: the soak and fault test on PostgreSQL (bench/README.md, Soak). Starts its own
 * PostgreSQL cluster (never the one other tests use), two API and two worker processes, runs the
 * mixed load for SOAK_MINUTES (10) while one API and one worker are killed and PostgreSQL is
 * restarted, then checks the invariants; prints the JSON summary and writes bench/results/soak.json.
 *
 *   npx tsx bench/soak/run.ts
 *   SOAK_MINUTES=2 SOAK_PORT_BASE=3400 npx tsx bench/soak/run.ts
 *   SOAK_SEEDED_FROM=postgres://…/seeded_db …   (copy a database seeded with the test config instead of seeding)
 *
 * Exits 1 when an invariant broke.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinaries } from './cluster.ts';
import { ROOT } from './processes.ts';
import { runSoak } from './soak.ts';

const bin = postgresBinaries();
if (!bin) {
  console.error('bench/soak needs PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin: apt-get install postgresql');
  process.exit(1);
}
const summary = await runSoak({
  minutes: Number(process.env.SOAK_MINUTES ?? 10),
  portBase: Number(process.env.SOAK_PORT_BASE ?? 3400),
  bin,
  ...(process.env.SOAK_SEEDED_FROM ? { seededFrom: process.env.SOAK_SEEDED_FROM } : {}),
  log: (line) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`),
});
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'soak.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
process.exit(summary.passed ? 0 : 1);
