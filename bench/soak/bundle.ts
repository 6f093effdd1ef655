import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './processes.ts';

/**
 * Bundles the server and the worker (as apps/server/build.mjs bundles the server) into
 * apps/server/dist/<name>/, where their npm dependencies resolve from the workspace. A bundle starts
 * in a second or two; through tsx each restart compiled the sources again, a minute on a busy
 * machine, which is not what a restart after a kill costs in production.
 */
export async function bundleServer(name: string): Promise<{ server: string; worker: string }> {
  const serverRoot = join(ROOT, 'apps', 'server');
  const pkg = JSON.parse(readFileSync(join(serverRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // One folder per soak (`name`), so a run never rewrites the files another run's restarts read.
  const outdir = join(serverRoot, 'dist', name);
  await build({
    entryPoints: [join(serverRoot, 'src', 'server.ts'), join(serverRoot, 'src', 'worker.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A failure's stack names the sources (processes started with --enable-source-maps).
    sourcemap: true,
    external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@admin/')),
    logLevel: 'warning',
  });
  return { server: join(outdir, 'server.js'), worker: join(outdir, 'worker.js') };
}
