import { z } from 'zod';
import { STATUSES, type Status } from '../constants.ts';

/**
 * Status transitions (product.md §5): active ⇄ paused, active|paused → inactive (Archive),
 * inactive → active (Restore). Archive is the delete.
 */
export const STATUS_TRANSITIONS: Record<Status, readonly Status[]> = {
  active: ['paused', 'inactive'],
  paused: ['active', 'inactive'],
  inactive: ['active'],
};

export function canTransition(from: Status, to: Status): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}

/** The button a person presses for a transition, e.g. `Archive`. */
export function transitionLabel(from: Status, to: Status): string {
  if (to === 'paused') return 'Pause';
  if (to === 'inactive') return 'Archive';
  return from === 'inactive' ? 'Restore' : 'Resume';
}

/**
 * `PATCH <collection>/{id}/status` body. `updated_at` is the version the caller saw; when the
 * record changed since, the server answers 409 instead of overwriting someone else's change.
 */
export const statusChangeSchema = z.strictObject({
  status: z.enum(STATUSES),
  updated_at: z.string().max(40).optional(),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;
