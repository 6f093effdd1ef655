import { Table } from '@mantine/core';

/** The header row of a small table written by hand (a dialog's recent calls, DNS records, a file's row errors), from its column labels. */
export function TableHead({ labels }: { labels: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {labels.map((label) => (
          <Table.Th key={label}>{label}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
