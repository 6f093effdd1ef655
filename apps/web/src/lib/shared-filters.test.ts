import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedFilters } from './shared-filters.ts';

beforeEach(() => useSharedFilters.getState().reset());

describe('shared filters', () => {
  it('keeps location, survey and date values', () => {
    const s = useSharedFilters.getState();
    s.setLocation(['a'.repeat(24)]);
    s.setSurvey(['selected all']);
    s.setDate({ startDate: '2026-11-01', endDate: '2026-11-22' });
    const now = useSharedFilters.getState();
    expect(now.location.value).toEqual(['a'.repeat(24)]);
    expect(now.survey.value).toEqual(['selected all']);
    expect(now.date).toEqual({ startDate: '2026-11-01', endDate: '2026-11-22' });
  });

  it("drops the chosen locations after a client switch (they were the other client's); Selected All stays", () => {
    const s = useSharedFilters.getState();
    s.setLocation(['a'.repeat(24), 'selected all']);
    s.forgetClientLocations();
    expect(useSharedFilters.getState().location.value).toEqual(['selected all']);
  });
});
