import { API_CALL_LOG_RETENTION_DAYS } from '@admin/shared';
import { z } from 'zod';

/**
 * How long the housekeeping job keeps each kind of row (docs/decisions/073-housekeeping.md), in
 * whole days; null keeps them forever. config.ts reads these variables with the others.
 */
export type RetentionConfig = {
  /** Jobs that ended (`done` or `failed`), counted from `finished_at`; pending and running jobs are never removed. */
  finishedJobsDays: number | null;
  /** Sign-in attempts and the refused sign-ins' summaries (the throttle reads only the last 15 minutes). */
  loginAttemptsDays: number | null;
  /** Ingest API call logs and the refused calls' summaries. */
  apiCallLogsDays: number | null;
  /** System Logs rows. */
  systemLogsDays: number | null;
};

/** Whole days up to a century, or `0` / `off`: keep forever. */
const retentionDays = (fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^(off|\d{1,5})$/i, 'must be a number of days (1 to 36500), or 0 or off to keep rows forever')
    .refine((v) => !/^\d+$/.test(v) || Number(v) <= 36_500, 'must be at most 36500 days')
    .transform((v): number | null => (/^off$/i.test(v) || Number(v) === 0 ? null : Number(v)))
    .default(fallback);

/** The retention variables, spread into config.ts's environment schema. */
export const retentionEnv = {
  JOBS_RETENTION_DAYS: retentionDays(14),
  LOGIN_ATTEMPTS_RETENTION_DAYS: retentionDays(30),
  // API Managers says the calls are kept this long by default (packages/shared, decision 032).
  API_CALL_LOGS_RETENTION_DAYS: retentionDays(API_CALL_LOG_RETENTION_DAYS),
  SYSTEM_LOGS_RETENTION_DAYS: retentionDays(365),
};

type RetentionEnv = { [K in keyof typeof retentionEnv]: z.infer<(typeof retentionEnv)[K]> };

export function retentionOf(e: RetentionEnv): RetentionConfig {
  return {
    finishedJobsDays: e.JOBS_RETENTION_DAYS,
    loginAttemptsDays: e.LOGIN_ATTEMPTS_RETENTION_DAYS,
    apiCallLogsDays: e.API_CALL_LOGS_RETENTION_DAYS,
    systemLogsDays: e.SYSTEM_LOGS_RETENTION_DAYS,
  };
}
