import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProvidersConfig } from '../../config.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';

export const reviewIngestRoutes: FastifyPluginAsyncZod<{ secrets: SecretBox; providers: ProvidersConfig }> = async () => {};
