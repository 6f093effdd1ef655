import { describe, expect, it } from 'vitest';
import { pageSummary } from './pager.tsx';

describe('pageSummary (the pager says which rows a page shows)', () => {
  it('names the rows of page 2, not only how many', () => {
    expect(pageSummary({ from: 51, shownCount: 50, total: 588, totalIsEstimate: false })).toBe('Showing 51–100 of 588');
  });
  it('says "about" for an estimated count, with thousands grouped', () => {
    expect(pageSummary({ from: 1, shownCount: 50, total: 21034, totalIsEstimate: true })).toBe('Showing 1–50 of about 21,034');
  });
  it('an empty page and a count still loading', () => {
    expect(pageSummary({ from: 1, shownCount: 0, total: 0, totalIsEstimate: false })).toBe('Showing 0 of 0');
    expect(pageSummary({ from: 1, shownCount: 7, total: undefined, totalIsEstimate: undefined })).toBe('Showing 1–7 of …');
  });
});
