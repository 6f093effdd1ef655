import { DatePickerInput } from '@mantine/dates';
import { useEffect, useState } from 'react';
import '@mantine/dates/styles.css';
import { DATE_INPUT_FORMAT } from '../../lib/format.ts';

type Range = [string | null, string | null];

/** **Date range** filter: `startDate`/`endDate` as `yyyy-MM-dd`, end date inclusive. */
export function DateRangeFilter(props: {
  startDate: string;
  endDate: string;
  onChange(range: { startDate: string; endDate: string }): void;
}) {
  // The picker's own half-chosen range; the filter changes once both ends are chosen or cleared.
  const [value, setValue] = useState<Range>([props.startDate || null, props.endDate || null]);
  useEffect(() => setValue([props.startDate || null, props.endDate || null]), [props.startDate, props.endDate]);
  return (
    <DatePickerInput
      type="range"
      label="Date range"
      placeholder="Any date"
      // Shown like every date on screen; the URL and the API keep yyyy-MM-dd.
      valueFormat={DATE_INPUT_FORMAT}
      clearable
      // Mantine's clear button is an icon with no text: named for screen readers (axe button-name).
      clearButtonProps={{ 'aria-label': 'Clear date range' }}
      allowSingleDateInRange
      w={260}
      value={value}
      onChange={(next) => {
        const [start, end] = next as Range;
        setValue([start, end]);
        if ((start && end) || (!start && !end)) props.onChange({ startDate: start ?? '', endDate: end ?? '' });
      }}
      popoverProps={{ withinPortal: true }}
    />
  );
}
