import { Badge, Group, VisuallyHidden } from '@mantine/core';
import type { FieldErrors, FieldValues } from 'react-hook-form';

/**
 * How many of a form's fields have an error, per tab (`tabs`: tab → the fields it holds; a field in
 * no tab counts under `fallback`), so every tab with a problem is marked after one submit.
 */
export function errorsByTab<Tab extends string>(
  errors: FieldErrors<FieldValues>,
  tabs: Readonly<Record<Tab, readonly string[]>>,
  fallback: Tab,
): Record<Tab, number> {
  const names = Object.keys(tabs) as Tab[];
  const counts = Object.fromEntries(names.map((t) => [t, 0])) as Record<Tab, number>;
  for (const field of Object.keys(errors)) {
    const tab = names.find((t) => tabs[t].includes(field)) ?? fallback;
    counts[tab] += 1;
  }
  return counts;
}

/**
 * A tab's label with its error count: a red dot with the number for the eye, and for a screen
 * reader the tab is named "Messaging (2 errors)" (the dot itself is hidden from it).
 */
export function TabErrorLabel({ label, count }: { label: string; count: number }) {
  if (count === 0) return <>{label}</>;
  return (
    <Group gap={6} wrap="nowrap">
      {label}
      <Badge size="xs" color="red" circle aria-hidden>
        {count}
      </Badge>
      <VisuallyHidden>{` (${count} ${count === 1 ? 'error' : 'errors'})`}</VisuallyHidden>
    </Group>
  );
}
