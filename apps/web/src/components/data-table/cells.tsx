import { Text } from '@mantine/core';
import { formatDate, formatDateTime, formatPhone } from '../../lib/format.ts';

/** What an empty cell shows. */
export function EmptyCell() {
  return <Text c="dimmed">—</Text>;
}

/** A calendar date on one line, e.g. `Nov 23, 2026`, with the exact value on hover. */
export function DateCell({ value }: { value: string | null | undefined }) {
  if (!value) return <EmptyCell />;
  return (
    <time dateTime={value} title={value} className="nowrap">
      {formatDate(value)}
    </time>
  );
}

/** A moment on one line, e.g. `Nov 23, 2026, 3:04:05 PM`. */
export function DateTimeCell({ value }: { value: string | null | undefined }) {
  if (!value) return <EmptyCell />;
  return (
    <time dateTime={value} title={value} className="nowrap">
      {formatDateTime(value)}
    </time>
  );
}

/** A phone number grouped for reading, e.g. `+1 (241) 555-2794`, on one line. */
export function PhoneCell({ value }: { value: string | null | undefined }) {
  if (!value) return <EmptyCell />;
  return <span className="nowrap">{formatPhone(value)}</span>;
}
