import type { ColumnDef } from '@admin/shared';
import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import type { ColumnChoice } from './use-column-preference.ts';

type Props = {
  columns: readonly ColumnDef[];
  choice: ColumnChoice;
  onChange(choice: ColumnChoice): void;
};

/** The **Columns** button: show, hide and reorder columns; at least one stays visible. */
export function ColumnChooser({ columns, choice, onChange }: Props) {
  const labelOf = (key: string) => columns.find((c) => c.key === key)?.label ?? key;
  const visibleCount = choice.order.filter((k) => !choice.hidden.includes(k)).length;

  function toggle(key: string, show: boolean) {
    onChange({ ...choice, hidden: show ? choice.hidden.filter((k) => k !== key) : [...choice.hidden, key] });
  }
  function move(index: number, delta: -1 | 1) {
    const j = index + delta;
    const order = [...choice.order];
    const a = order[index];
    const b = order[j];
    if (a === undefined || b === undefined) return;
    order[index] = b;
    order[j] = a;
    onChange({ ...choice, order });
  }

  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" size="sm">
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label="Choose columns">
          <Text size="xs" c="dimmed">
            Show, hide and order the columns
          </Text>
          {choice.order.map((key, index) => {
            const shown = !choice.hidden.includes(key);
            return (
              <Group key={key} justify="space-between" gap="xs" wrap="nowrap">
                <Checkbox
                  label={labelOf(key)}
                  checked={shown}
                  disabled={shown && visibleCount === 1}
                  onChange={(e) => toggle(key, e.currentTarget.checked)}
                />
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={`Move ${labelOf(key)} left`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={`Move ${labelOf(key)} right`}
                    disabled={index === choice.order.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </ActionIcon>
                </Group>
              </Group>
            );
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
