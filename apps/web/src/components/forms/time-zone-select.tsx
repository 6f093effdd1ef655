import { TIME_ZONES } from '@admin/shared/resources/clients';
import type { ComboboxItem, ComboboxItemGroup, ComboboxParsedItem } from '@mantine/core';
import { SearchableSelect } from '../filters/searchable-select.tsx';

/** The zones most clients are in (the platform serves US businesses), listed first. */
const COMMON_US_ZONES: readonly { value: string; name: string }[] = [
  { value: 'America/New_York', name: 'Eastern' },
  { value: 'America/Chicago', name: 'Central' },
  { value: 'America/Denver', name: 'Mountain' },
  { value: 'America/Phoenix', name: 'Arizona' },
  { value: 'America/Los_Angeles', name: 'Pacific' },
  { value: 'America/Anchorage', name: 'Alaska' },
  { value: 'Pacific/Honolulu', name: 'Hawaii' },
];
const FALLBACK_ZONE = 'America/New_York';

const common = COMMON_US_ZONES.filter((z) => TIME_ZONES.includes(z.value));
const commonValues = new Set(common.map((z) => z.value));
const OPTIONS: ComboboxItemGroup<ComboboxItem>[] = [
  { group: 'Common US time zones', items: common.map((z) => ({ value: z.value, label: `${z.value} (${z.name})` })) },
  { group: 'All time zones', items: TIME_ZONES.filter((z) => !commonValues.has(z)).map((z) => ({ value: z, label: z })) },
];

/**
 * The zone a new client or location starts with: the browser's own when it is a real place in
 * the list (a machine set to UTC says nothing about where a business is), else US Eastern.
 */
export function defaultTimeZone(): string {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (own && TIME_ZONES.includes(own) && !/^(UTC|GMT|Etc\/)/.test(own)) return own;
  return FALLBACK_ZONE;
}

/** "new york", "New_York" and "america/new" all find America/New_York. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[_/()]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

function filterZones({ options, search }: { options: ComboboxParsedItem[]; search: string }): ComboboxParsedItem[] {
  const wanted = words(search);
  if (wanted.length === 0) return options;
  const matches = (item: ComboboxItem) => {
    const have = words(item.label);
    return wanted.every((w) => have.some((h) => h.startsWith(w)));
  };
  const found: ComboboxParsedItem[] = [];
  for (const option of options) {
    if ('group' in option) {
      const items = option.items.filter(matches);
      if (items.length > 0) found.push({ ...option, items });
    } else if (matches(option)) found.push(option);
  }
  return found;
}

/** **Time zone**: every IANA zone, searchable by any part of its name, common US zones first. */
export function TimeZoneSelect(props: { value: string; onChange(value: string): void; onBlur(): void; error: string | undefined }) {
  return (
    <SearchableSelect
      label="Time zone"
      required
      data={OPTIONS}
      filter={filterZones}
      placeholder="e.g. Chicago"
      nothingFoundMessage="No time zone matches"
      maxDropdownHeight={320}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? '')}
      onBlur={props.onBlur}
      error={props.error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
