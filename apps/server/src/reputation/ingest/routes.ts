import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProvidersConfig } from '../../config.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import { reviewApiRoutes } from './api-route.ts';
import { reviewImportRoutes } from './csv-route.ts';
import { googlePullRoutes } from './google-routes.ts';

/** The three doors reviews come in by (issue 21, item 1), each calling `ingestReviews` (ingest.ts). */
export const reviewIngestRoutes: FastifyPluginAsyncZod<{ secrets: SecretBox; providers: ProvidersConfig }> = async (app, opts) => {
  await app.register(reviewApiRoutes);
  await app.register(reviewImportRoutes);
  await app.register(googlePullRoutes, opts);
};
