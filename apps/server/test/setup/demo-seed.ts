import { type Config, testConfig } from '../../src/config.ts';
import type { seedDemoData } from '../../src/seed/demo.ts';

/** The demo accounts' password in every test app (README's demo accounts use another, from config). */
export const DEMO_PASSWORD = 'demo-password';

/** What `seedDemoData` reads from the config, every key of its parameter: an app overriding any of these seeds its own demo. */
const SEED_READS = {
  demoPassword: true,
  retiredMasterEmail: true,
  messaging: true,
  secretKey: true,
  database: true,
  passwordHashCost: true,
} satisfies Record<keyof Parameters<typeof seedDemoData>[1], true>;

/** The config the run's demo templates are seeded with (setup/databases.ts): `startTestApp`'s, without overrides. */
export function demoSeedConfig(): Config {
  return testConfig({ demoPassword: DEMO_PASSWORD });
}

/** True when an app with these overrides would seed the same demo as the run's template (decision 064). */
export function seedsLikeTemplate(overrides: Partial<Config>): boolean {
  return Object.keys(SEED_READS).every((key) => !(key in overrides));
}
