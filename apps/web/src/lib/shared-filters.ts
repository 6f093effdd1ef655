import { create } from 'zustand';

export type Option = { label: string; value: string };

/**
 * The shared filters (docs/overview.md, The shell): location, survey and date, each a value and,
 * for surveys, its options. Location values are ids (`_id`) whose names location pickers ask the
 * server for (GET /api/endpoints/options). Screens that filter by them (testimonials, reports)
 * read and set them here, so a choice follows the user between those screens. `selected all` in
 * a value means every option.
 */
type SharedFilters = {
  location: { value: string[] };
  survey: { value: string[]; options: Option[] };
  date: { startDate: string; endDate: string };
  setLocation(value: string[]): void;
  /** After a client switch: the chosen locations were the other client's (Selected All stays). */
  forgetClientLocations(): void;
  setSurvey(value: string[]): void;
  setSurveyOptions(options: Option[]): void;
  setDate(range: { startDate: string; endDate: string }): void;
  reset(): void;
};

const empty = {
  location: { value: [] },
  survey: { value: [], options: [] },
  date: { startDate: '', endDate: '' },
};

export const useSharedFilters = create<SharedFilters>()((set) => ({
  ...empty,
  setLocation: (value) => set({ location: { value } }),
  forgetClientLocations: () => set((s) => ({ location: { value: s.location.value.filter((v) => v === 'selected all') } })),
  setSurvey: (value) => set((s) => ({ survey: { ...s.survey, value } })),
  setSurveyOptions: (options) =>
    set((s) => ({ survey: { options, value: s.survey.value.filter((v) => v === 'selected all' || options.some((o) => o.value === v)) } })),
  setDate: (date) => set({ date }),
  reset: () => set(empty),
}));
