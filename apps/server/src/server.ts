import { buildApp, defaultWebDistDir } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { serverPackageRoot } from './lib/package-root.ts';

/** Reads the configuration, builds the app, listens, and closes gracefully. Nothing else. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  config.webDistDir ??= defaultWebDistDir(serverPackageRoot());
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });

  const where = config.database.kind === 'pglite' ? `embedded PostgreSQL in ${config.database.dataDir}` : 'PostgreSQL server';
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`\nAdmin console: http://${shown}:${config.port}  (${where})`);
  if (config.demoData) {
    console.log(`Demo accounts (password: ${config.demoPassword === 'demo-password' ? 'demo-password' : 'DEMO_PASSWORD'}):`);
    console.log('  admin@example.com   Ada Admin       super-admin: accepted');
    console.log('  staff@example.com   Sam Staff       not a super-admin: refused');
    console.log(`  ${config.retiredMasterEmail.padEnd(19)} Master Account  retired master: refused\n`);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
