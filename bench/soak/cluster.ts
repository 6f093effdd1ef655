import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the soak's own (initdb into a temporary directory, a port of its own), so
 * restarting it never touches a cluster anyone else's tests use. initdb refuses to run as root, so
 * as root the directory is given to the `postgres` user and the binaries run as that user (the way
 * .ci/run starts its cluster).
 */
export type Cluster = {
  port: number;
  /** Superuser URL of the `postgres` database. */
  adminUrl: string;
  start(): void;
  /** `pg_ctl stop -m fast`: every connection is ended (57P01), new ones refused until start. */
  stop(): void;
  /** Stops and removes the directory. */
  destroy(): void;
};

/** The newest PostgreSQL binaries of the machine (Debian's /usr/lib/postgresql/N/bin), or null. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? join(root, newest, 'bin') : null;
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export function createCluster(bin: string, port: number): Cluster {
  const dir = mkdtempSync(join(tmpdir(), 'soak-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  /** Runs a PostgreSQL binary, as `postgres` when this process is root. */
  const run = (program: string, args: string[]) => {
    const command = [join(bin, program), ...args];
    const result = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command.map(quote).join(' ')], { encoding: 'utf8' })
      : spawnSync(command[0] ?? '', command.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed (${result.status}): ${result.stderr}${result.stdout}`);
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // fsync off: the soak tests the processes and the restart, not the disk; it also keeps a busy machine's I/O for the load.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off`;
  const cluster: Cluster = {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '120', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop']),
    destroy() {
      try {
        cluster.stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/**
 * Copies a database (`pg_dump | pg_restore`) into `toUrl`: the short soak starts from the demo the
 * test run already seeded (apps/server/test/setup/databases.ts) instead of seeding it again.
 */
export function copyDatabase(bin: string, fromUrl: string, toUrl: string): void {
  const command = `${quote(join(bin, 'pg_dump'))} -Fc --no-owner --no-acl ${quote(fromUrl)} | ${quote(join(bin, 'pg_restore'))} --no-owner --no-acl -d ${quote(toUrl)}`;
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`copying the seeded database failed (${result.status}): ${result.stderr}`);
}
