import { SELECTED_ALL, SELECTED_ALL_LABEL } from '@admin/shared/constants';
import { MultiSelect } from '@mantine/core';

type Option = { value: string; label: string };

/**
 * A multi-select filter with **Selected All** (value `selected all`, spec §3): choosing it
 * clears the other choices; choosing any option drops it.
 */
export function MultiFilter(props: {
  label: string;
  options: Option[];
  value: string[];
  onChange(value: string[]): void;
  w?: number;
  /** What an empty choice means; "Any" unless said. */
  emptyLabel?: string;
}) {
  const data = [{ value: SELECTED_ALL, label: SELECTED_ALL_LABEL }, ...props.options];
  return (
    <MultiSelect
      label={props.label}
      data={data}
      value={props.value}
      w={props.w ?? 220}
      searchable
      clearable
      placeholder={props.value.length === 0 ? (props.emptyLabel ?? 'Any') : undefined}
      nothingFoundMessage="No match"
      comboboxProps={{ withinPortal: true }}
      onChange={(next) => {
        const added = next.find((v) => !props.value.includes(v));
        if (added === SELECTED_ALL) props.onChange([SELECTED_ALL]);
        else props.onChange(next.filter((v) => v !== SELECTED_ALL));
      }}
    />
  );
}
