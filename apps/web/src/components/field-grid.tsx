import { SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A value under its small label, as detail panels show a record's fields. */
export function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </div>
  );
}

/** A detail panel's fields in two columns, each value under its label (`—` when empty); long values break. */
export function FieldGrid({ fields }: { fields: readonly (readonly [string, string | null])[] }) {
  return (
    <SimpleGrid cols={2} spacing="xs">
      {fields.map(([label, value]) => (
        <Labelled key={label} label={label}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {value ?? '—'}
          </Text>
        </Labelled>
      ))}
    </SimpleGrid>
  );
}
