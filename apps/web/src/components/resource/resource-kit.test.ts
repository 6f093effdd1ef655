import { productResource } from '@admin/shared/resources/products';
import { referralSourceResource } from '@admin/shared/resources/referral-sources';
import { describe, expect, it } from 'vitest';
import { bodyOf } from './use-resource-form.ts';
import { listConfigOf, needsCurrentClient } from './use-resource-list.ts';

describe('resource kit', () => {
  it("derives the list's URL state from the definition's filters", () => {
    expect(listConfigOf(productResource)).toEqual({ multi: { status: ['active', 'paused'], category: [] }, single: [] });
    expect(listConfigOf(referralSourceResource)).toEqual({ multi: { status: ['active', 'paused'], type: [] }, single: ['scope'] });
    expect(listConfigOf(productResource, { single: ['startDate'], perPage: 100 })).toEqual({
      multi: { status: ['active', 'paused'], category: [] },
      single: ['startDate'],
      perPage: 100,
    });
  });

  it('sends trimmed text, empty text as null, and other values as they are', () => {
    expect(bodyOf({ name: '  Tire rotation ', category: '   ', global: true, location_ids: ['a1'] })).toEqual({
      name: 'Tire rotation',
      category: null,
      global: true,
      location_ids: ['a1'],
    });
  });

  it('waits for a current client only on client-scoped screens', () => {
    expect(needsCurrentClient(productResource)).toBe(true);
    expect(needsCurrentClient({ scope: 'global' })).toBe(false);
    expect(needsCurrentClient({ scope: 'filterable-clients' })).toBe(false);
  });

  it('names the plural and the noun of buttons from the definition', () => {
    expect(productResource.noun).toBe('product');
    expect(referralSourceResource.plural).toBe('referral sources');
    expect(productResource.labels.code).toBe('Code');
  });
});
