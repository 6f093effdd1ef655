import {
  DISPLAY_NAME_MAX,
  DISPLAY_TEXT_MAX,
  TESTIMONIAL_LABELS,
  TESTIMONIAL_STATUS_LABELS,
  type TestimonialAction,
  type TestimonialEdit,
  type TestimonialStatus,
} from '@admin/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { testimonials } from '../../db/schema/index.ts';
import { fieldsRefused, HttpError } from '../../lib/http-error.ts';
import type { TestimonialRow } from './repository.ts';

type Change = Partial<typeof testimonials.$inferInsert>;

/** What an action does to a testimonial in a state, or why it may not (409/422 with the reason). */
export function transition(row: TestimonialRow, action: TestimonialAction, userId: number, now: Date): Change {
  const status = row.status as TestimonialStatus;
  const refuse = (message: string) => new HttpError(409, message, { status: [message] });
  const is = TESTIMONIAL_STATUS_LABELS[status] ?? status;
  switch (action) {
    case 'approve':
      if (status !== 'pending') throw refuse(`Only a pending testimonial can be approved; this one is ${is}.`);
      return { status: 'approved', approvedBy: userId, approvedAt: now };
    case 'reject':
      if (status === 'rejected') throw refuse('This testimonial is already rejected.');
      // Rejected hides it everywhere: off the widget and unpinned (restorable, as pending).
      return { status: 'rejected', featured: false, publishedAt: null };
    case 'restore':
      if (status !== 'rejected') throw refuse(`Only a rejected testimonial can be restored; this one is ${is}.`);
      return { status: 'pending', approvedBy: null, approvedAt: null };
    case 'publish':
      // Consent first (422: the testimonial itself can never be published), then approval (409: approve it first).
      if (!row.consent)
        throw new HttpError(422, 'The customer did not consent to publishing this comment, so it cannot be published.', {
          consent: ['The customer did not give consent'],
        });
      if (status === 'published') throw refuse('This testimonial is already published.');
      if (status !== 'approved') throw refuse(`Approve this testimonial before publishing it; it is ${is}.`);
      return { status: 'published', publishedAt: now };
    case 'unpublish':
      if (status !== 'published') throw refuse(`Only a published testimonial can be unpublished; this one is ${is}.`);
      return { status: 'approved', publishedAt: null };
    case 'feature':
      if (status === 'rejected') throw refuse('A rejected testimonial cannot be featured; restore it first.');
      if (row.featured) throw refuse('This testimonial is already featured.');
      return { featured: true };
    case 'unfeature':
      if (!row.featured) throw refuse('This testimonial is not featured.');
      return { featured: false };
  }
}

/** The display text and name as edited, checked (`required|max:1000`, `required|max:60`), messages naming the fields. */
export function editOf(body: TestimonialEdit): Change {
  const errors: Record<string, string[]> = {};
  const change: Change = {};
  const check = (key: 'display_text' | 'display_name', value: string | undefined, max: number) => {
    if (value === undefined) return undefined;
    const label = TESTIMONIAL_LABELS[key];
    const text = value.trim();
    if (text === '') errors[key] = [`The ${label} field is required`];
    else if (text.length > max) errors[key] = [`The ${label} field may not be greater than ${max} characters`];
    return text;
  };
  const text = check('display_text', body.display_text, DISPLAY_TEXT_MAX);
  const name = check('display_name', body.display_name, DISPLAY_NAME_MAX);
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, TESTIMONIAL_LABELS);
  if (text !== undefined) change.displayText = text;
  if (name !== undefined) change.displayName = name;
  if (text === undefined && name === undefined)
    throw fieldsRefused({ display_text: [`The ${TESTIMONIAL_LABELS.display_text} field is required`] }, TESTIMONIAL_LABELS);
  return change;
}

/** The condition a write keeps: the row is still as read (its status and version), so racing writes have one winner. */
export const unchanged = (row: TestimonialRow) =>
  and(eq(testimonials.id, row.id), eq(testimonials.status, row.status), eq(testimonials.updatedAt, row.updatedAt));

/** Bulk approve's rows: the client's chosen pending ones. */
export const pendingOf = (clientId: number, ids: number[]) =>
  and(eq(testimonials.clientId, clientId), inArray(testimonials.id, ids), eq(testimonials.status, 'pending'));
