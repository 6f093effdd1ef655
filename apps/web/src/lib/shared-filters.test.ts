import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedFilters } from './shared-filters.ts';

beforeEach(() => useSharedFilters.getState().reset());

describe('shared filters', () => {
  it('keeps location, survey and date values with their options', () => {
    const s = useSharedFilters.getState();
    s.setLocationOptions([
      { label: 'Downtown', value: 'a'.repeat(24) },
      { label: 'North', value: 'b'.repeat(24) },
    ]);
    s.setLocation(['a'.repeat(24)]);
    s.setSurvey(['selected all']);
    s.setDate({ startDate: '2026-11-01', endDate: '2026-11-22' });
    const now = useSharedFilters.getState();
    expect(now.location.value).toEqual(['a'.repeat(24)]);
    expect(now.survey.value).toEqual(['selected all']);
    expect(now.date).toEqual({ startDate: '2026-11-01', endDate: '2026-11-22' });
  });

  it('drops chosen locations that are not options any more (another client)', () => {
    const s = useSharedFilters.getState();
    s.setLocationOptions([{ label: 'Downtown', value: 'a'.repeat(24) }]);
    s.setLocation(['a'.repeat(24), 'selected all']);
    s.setLocationOptions([{ label: 'Uptown', value: 'c'.repeat(24) }]);
    expect(useSharedFilters.getState().location.value).toEqual(['selected all']);
  });
});
