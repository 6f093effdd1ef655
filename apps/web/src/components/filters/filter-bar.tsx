import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The row of filters above a table: inputs of one height on one baseline, wrapping on narrow
 * screens; on phones each filter takes the full width, so the column reads as a form.
 */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" className="filter-bar" role="group" aria-label="Filters">
      {children}
    </Group>
  );
}
