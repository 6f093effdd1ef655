import type { DiffRow } from '@admin/shared/resources/readable-diff';
import { Table, Text } from '@mantine/core';

const cell = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** A change as people read it: each field by its label, before and after in words (`readable-diff.ts`). */
export function DiffTable({ rows, label = 'Changes' }: { rows: readonly DiffRow[]; label?: string }) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No field changed.
      </Text>
    );
  return (
    <Table withTableBorder fz="sm" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Th scope="row">{r.label}</Table.Th>
            <Table.Td style={cell}>{r.before}</Table.Td>
            <Table.Td style={cell}>{r.after}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
