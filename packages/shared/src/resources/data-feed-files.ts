import { z } from 'zod';
import { FEED_RUN_STATUSES } from '../pipeline/enums.ts';

/**
 * Survey Platform's files and runs (docs/screens.md, Survey Platform): the bodies of Upload CSV,
 * Validate file and the mapping editor's preview, and what they and Run now answer. The feed
 * itself is data-feeds.ts, which exports all of these too.
 */

/** The largest feed file taken, uploaded or pulled (about 500,000 rows of a typical export). */
export const MAX_FEED_FILE_BYTES = 60_000_000;

/**
 * Upload CSV's and Validate file's body as the upload dialog labels it: the file's text and its
 * name both come from its one file input.
 */
export const FEED_FILE_LABELS = { csv: 'CSV file', file_name: 'CSV file' } as const satisfies Record<string, string>;
/** `POST /api/data-feeds/:id/upload`, `/validate` and `/preview`: a file's text (as Personnel's import: JSON, not multipart). */
export const feedFileSchema = z.strictObject({
  file_name: z.string().trim().min(1).max(255).optional(),
  csv: z.string().min(1, `The ${FEED_FILE_LABELS.csv} field is required`).max(MAX_FEED_FILE_BYTES),
});
export type FeedFileBody = z.infer<typeof feedFileSchema>;

/** A row a file could not take: its number (1 = the first data row), the source column, why. */
export const feedRowErrorSchema = z.object({
  row_number: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type FeedRowError = z.infer<typeof feedRowErrorSchema>;

/** Validate file (dry run): what a run would accept and refuse; nothing written. */
export const feedValidationSchema = z.object({
  rows_read: z.number().int(),
  rows_valid: z.number().int(),
  rows_invalid: z.number().int(),
  /** The first errors (at most 500). */
  errors: z.array(feedRowErrorSchema),
});
export type FeedValidation = z.infer<typeof feedValidationSchema>;

/** The mapping editor's preview: the sample's columns and first rows. */
export const feedPreviewSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});
export type FeedPreview = z.infer<typeof feedPreviewSchema>;

/** A finished run as the ingest API and the demo data have it (Survey Manager Logs shows the same run). */
export const feedRunSchema = z.object({
  id: z.number().int(),
  data_feed_id: z.number().int(),
  source_name: z.string(),
  status: z.enum(FEED_RUN_STATUSES),
  rows_read: z.number().int(),
  rows_accepted: z.number().int(),
  rows_skipped: z.record(z.string(), z.number().int()),
  rows_invalid: z.number().int(),
  scheduled: z.number().int(),
  error: z.string().nullable(),
  errors: z.array(feedRowErrorSchema),
});
export type FeedRun = z.infer<typeof feedRunSchema>;

/**
 * Upload CSV's answer: the file is stored as a run, whose rows the workers admit; its progress and
 * outcome are the run's on Survey Manager Logs (`GET /api/survey-manager-logs/runs/:id`).
 */
export const feedRunStartedSchema = z.object({
  id: z.number().int(),
  data_feed_id: z.number().int(),
  source_name: z.string(),
  run_status: z.enum(FEED_RUN_STATUSES),
  rows_read: z.number().int(),
});
export type FeedRunStarted = z.infer<typeof feedRunStartedSchema>;

/** Run now: what was started (an SFTP pull is queued as a job). */
export const feedRunNowSchema = z.object({ queued: z.boolean(), job_id: z.number().int().nullable(), message: z.string() });
