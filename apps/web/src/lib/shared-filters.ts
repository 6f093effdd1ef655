import { create } from 'zustand';

export type Option = { label: string; value: string };

/**
 * The shared filters (docs/overview.md, The shell): location, survey and date, each a value and, for the first
 * two, its options (location option: label = locationname, value = _id). Screens that filter by
 * them (testimonials, reports) read and set them here, so a choice follows the user between
 * those screens. `selected all` in a value means every option.
 */
type SharedFilters = {
  location: { value: string[]; options: Option[] };
  survey: { value: string[]; options: Option[] };
  date: { startDate: string; endDate: string };
  setLocation(value: string[]): void;
  setLocationOptions(options: Option[]): void;
  setSurvey(value: string[]): void;
  setSurveyOptions(options: Option[]): void;
  setDate(range: { startDate: string; endDate: string }): void;
  reset(): void;
};

const empty = {
  location: { value: [], options: [] },
  survey: { value: [], options: [] },
  date: { startDate: '', endDate: '' },
};

export const useSharedFilters = create<SharedFilters>()((set) => ({
  ...empty,
  setLocation: (value) => set((s) => ({ location: { ...s.location, value } })),
  setLocationOptions: (options) =>
    // Choices that are no longer options (another client's locations) are dropped.
    set((s) => ({
      location: { options, value: s.location.value.filter((v) => v === 'selected all' || options.some((o) => o.value === v)) },
    })),
  setSurvey: (value) => set((s) => ({ survey: { ...s.survey, value } })),
  setSurveyOptions: (options) =>
    set((s) => ({ survey: { options, value: s.survey.value.filter((v) => v === 'selected all' || options.some((o) => o.value === v)) } })),
  setDate: (date) => set({ date }),
  reset: () => set(empty),
}));
