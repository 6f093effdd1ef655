import { SELECTED_ALL } from '@admin/shared/constants';
import { describe, expect, it } from 'vitest';
import { NO_FILTERS, testimonialQueryOf } from './testimonial-query.ts';

const all = { locations: ['a1', 'b2'], surveys: ['7', '9'] };

describe('the Testimonials Tool query (original-spec.md §5)', () => {
  it('does not run without a location, a survey or both dates', () => {
    expect(testimonialQueryOf(NO_FILTERS, all)).toBeNull();
    expect(testimonialQueryOf({ ...NO_FILTERS, startDate: '2026-11-01' }, all)).toBeNull();
    expect(testimonialQueryOf({ ...NO_FILTERS, endDate: '2026-11-01' }, all)).toBeNull();
  });
  it('leaves empty values out', () => {
    expect(testimonialQueryOf({ ...NO_FILTERS, location: ['a1'] }, all)).toEqual({ location: ['a1'] });
    expect(testimonialQueryOf({ ...NO_FILTERS, survey: ['9'] }, all)).toEqual({ survey: [9] });
    expect(testimonialQueryOf({ ...NO_FILTERS, startDate: '2026-11-01', endDate: '2026-11-26' }, all)).toEqual({
      startDate: '2026-11-01',
      endDate: '2026-11-26',
    });
    expect(testimonialQueryOf({ ...NO_FILTERS, location: ['a1'], startDate: '2026-11-01' }, all)).toEqual({ location: ['a1'] });
  });
  it('Selected All stands for every option', () => {
    expect(testimonialQueryOf({ ...NO_FILTERS, location: [SELECTED_ALL], survey: [SELECTED_ALL] }, all)).toEqual({
      location: ['a1', 'b2'],
      survey: [7, 9],
    });
  });
});
