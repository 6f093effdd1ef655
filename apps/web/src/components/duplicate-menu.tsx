import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { RowMenu } from './row-menu.tsx';

/** One way to copy a row, e.g. "Copy for Summit Heating & Air"; a failed copy's message is shown as a toast. */
export type DuplicateItem = { label: ReactNode; onClick: () => unknown };

/**
 * A row's Duplicate button (named "Duplicate <name>" for screen readers and tests) with the ways
 * to copy it in a menu; with one way only, the button copies at once, without a menu of one.
 * The caller's action says what succeeded; a failure shows its message in a red toast.
 */
export function DuplicateMenu({ name, items }: { name: string; items: readonly DuplicateItem[] }) {
  const run = (item: DuplicateItem) =>
    void Promise.resolve()
      .then(item.onClick)
      .catch((e: unknown) => notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) }));
  const [only] = items;
  if (items.length === 1 && only) {
    return (
      <Button size="compact-xs" variant="subtle" aria-label={`Duplicate ${name}`} onClick={() => run(only)}>
        Duplicate
      </Button>
    );
  }
  return (
    <RowMenu label="Duplicate" name={`Duplicate ${name}`}>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the caller's fixed list of items, in order
        <Menu.Item key={i} onClick={() => run(item)}>
          {item.label}
        </Menu.Item>
      ))}
    </RowMenu>
  );
}
