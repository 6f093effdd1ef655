import { Button, Menu } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table row's menu of actions (More, Duplicate): a small button named for the row (`aria-label`,
 * e.g. "More actions for Summit Heating & Air", as screen readers and tests find it) that opens
 * the caller's `Menu.Item`s below it, aligned to its right edge as the Actions column sits.
 */
export function RowMenu({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-xs" variant="subtle" aria-label={name}>
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
