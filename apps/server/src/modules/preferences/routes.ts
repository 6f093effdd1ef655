import { dataEnvelope } from '@admin/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userPreferences } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';

const keyParam = z.object({ key: z.string().regex(/^[a-z0-9:._-]{1,100}$/, 'must be 1–100 characters of a-z 0-9 : . _ -') });
const MAX_VALUE_BYTES = 16 * 1024;

/** Per-user settings, e.g. `table:system-logs` → `{ columns: ["at", "level"] }`. */
export const preferenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/preferences/:key',
    { config: { access: 'superadmin' }, schema: { params: keyParam, response: { 200: dataEnvelope(z.unknown()) } } },
    async (request) => {
      const userId = request.auth?.user.id ?? 0;
      const [row] = await app.db
        .select({ value: userPreferences.value })
        .from(userPreferences)
        .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, request.params.key)));
      return { data: row?.value ?? null };
    },
  );

  app.put(
    '/api/preferences/:key',
    {
      config: { access: 'superadmin' },
      schema: { params: keyParam, body: z.strictObject({ value: z.json() }), response: { 200: dataEnvelope(z.unknown()) } },
    },
    async (request) => {
      const userId = request.auth?.user.id;
      if (!userId) throw new HttpError(401, 'Sign-in required.');
      const value = request.body.value ?? null;
      // null resets the preference to the screen's default.
      if (value === null) {
        await app.db.delete(userPreferences).where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, request.params.key)));
        return { data: null };
      }
      if (JSON.stringify(value).length > MAX_VALUE_BYTES) {
        throw new HttpError(413, 'The preference is too large.', { value: [`The value may not be larger than ${MAX_VALUE_BYTES} bytes`] });
      }
      await app.db
        .insert(userPreferences)
        .values({ userId, key: request.params.key, value })
        .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value, updatedAt: new Date() } });
      return { data: value };
    },
  );
};
