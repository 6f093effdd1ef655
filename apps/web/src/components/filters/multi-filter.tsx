import { SELECTED_ALL, SELECTED_ALL_LABEL } from '@admin/shared/constants';
import { MultiSelect, Pill } from '@mantine/core';

type Option = { value: string; label: string };

/** Chips shown before the rest are summed up as "+N", so the input keeps one line. */
const SHOWN_PILLS = 2;

/**
 * A multi-select filter with **Selected All** (value `selected all`, docs/overview.md, Shared vocabulary): choosing it
 * clears the other choices; choosing any option drops it. The input stays one line high however
 * many values are chosen, so a row of filters lines up; the dropdown ticks every chosen option.
 */
export function MultiFilter(props: {
  label: string;
  options: Option[];
  value: string[];
  onChange(value: string[]): void;
  w?: number;
  /** What an empty choice means; "Any" unless said. */
  emptyLabel?: string;
  /** For options that the server finds as the user types (`RemoteMultiFilter`). */
  searchValue?: string;
  onSearchChange?(search: string): void;
  serverFiltered?: boolean;
  nothingFound?: string;
}) {
  const data = [{ value: SELECTED_ALL, label: SELECTED_ALL_LABEL }, ...props.options];
  const labelOf = (value: string | undefined) => data.find((o) => o.value === value)?.label ?? value;
  const summed = props.value.length > SHOWN_PILLS;
  const visibleCount = summed ? SHOWN_PILLS - 1 : SHOWN_PILLS;
  return (
    <MultiSelect
      label={props.label}
      data={data}
      value={props.value}
      w={props.w ?? 220}
      searchable
      clearable
      placeholder={props.value.length === 0 ? (props.emptyLabel ?? 'Any') : undefined}
      nothingFoundMessage={props.nothingFound ?? 'No match'}
      {...(props.onSearchChange ? { searchValue: props.searchValue ?? '', onSearchChange: props.onSearchChange } : {})}
      {...(props.serverFiltered ? { filter: ({ options }) => options } : {})}
      comboboxProps={{ withinPortal: true }}
      classNames={{ pillsList: 'multi-filter-pills', inputField: 'multi-filter-field', pill: 'multi-filter-pill' }}
      renderPill={({ value, onRemove }) => {
        const index = props.value.indexOf(String(value));
        if (index < visibleCount) {
          return (
            <Pill withRemoveButton onRemove={onRemove} className="multi-filter-pill" title={labelOf(value)}>
              {labelOf(value)}
            </Pill>
          );
        }
        if (index === visibleCount) {
          const rest = props.value.slice(visibleCount).map(labelOf);
          return (
            <Pill className="multi-filter-pill multi-filter-more" title={rest.join(', ')}>
              +{rest.length} more
            </Pill>
          );
        }
        return null;
      }}
      onChange={(next) => {
        const added = next.find((v) => !props.value.includes(v));
        if (added === SELECTED_ALL) props.onChange([SELECTED_ALL]);
        else props.onChange(next.filter((v) => v !== SELECTED_ALL));
      }}
    />
  );
}
