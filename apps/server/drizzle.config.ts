import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the Drizzle schema; the same files run on PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/server/src/db/schema/index.ts',
  out: './apps/server/drizzle',
});
