// Measures the gzip size of the JavaScript each route loads, from Vite's build manifest.
// Usage: npm run bench:bundle  (builds the web app first). Writes bench/results/bundle-size.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** Every JS file a manifest entry loads eagerly (itself and its static imports, recursively). */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}
const filesOf = (keys) => new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')));
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entryFiles = filesOf(closure(entryKey));
const sum = (files) => [...files].reduce((n, f) => n + gz(f), 0);
const routeKey = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));

// The login route: the entry plus the login page chunk and what it imports.
const loginFiles = new Set([...entryFiles, ...filesOf(closure(routeKey('features/auth/login-page.tsx')))]);
const layoutFiles = filesOf(closure(routeKey('app/app-layout.tsx')));

const chunks = Object.keys(manifest)
  .filter((k) => manifest[k].isDynamicEntry)
  .map((k) => {
    const own = filesOf(closure(k));
    const extra = [...own].filter((f) => !entryFiles.has(f));
    return { chunk: k.replace(/^src\//, ''), gzipKB: kb(gz(manifest[k].file)), withSharedNotInEntryKB: kb(sum(extra)) };
  })
  .sort((a, b) => a.chunk.localeCompare(b.chunk));

const result = {
  measuredAt: new Date().toISOString(),
  entryGzipKB: kb(sum(entryFiles)),
  loginRouteGzipKB: kb(sum(loginFiles)),
  loginRouteTargetKB: 120,
  signedInShellExtraGzipKB: kb(sum([...layoutFiles].filter((f) => !entryFiles.has(f)))),
  chunks,
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/bundle-size.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`login route: ${result.loginRouteGzipKB} KB gzip (target ≤ ${result.loginRouteTargetKB} KB)`);
console.log(`entry: ${result.entryGzipKB} KB; signed-in shell adds ${result.signedInShellExtraGzipKB} KB`);
for (const c of chunks) console.log(`  ${c.chunk.padEnd(55)} ${String(c.gzipKB).padStart(6)} KB  (+shared ${c.withSharedNotInEntryKB} KB)`);
