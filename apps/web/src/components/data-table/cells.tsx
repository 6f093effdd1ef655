import { Text } from '@mantine/core';
import { formatDate, formatDateTime, formatPhone, viewerTime } from '../../lib/format.ts';

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

/**
 * A moment on one line with its zone named, e.g. `Nov 23, 2026, 3:04 PM CST`: in `zone` (the
 * record's client's) with the viewer's own time on hover, or in the viewer's zone without one.
 */
export function DateTimeCell({ value, zone }: { value: string | null | undefined; zone?: string | null }) {
  if (!value) return <EmptyCell />;
  return (
    <time dateTime={value} title={viewerTime(value, zone) ?? value} className="nowrap">
      {formatDateTime(value, zone)}
    </time>
  );
}

/** A phone number grouped for reading, e.g. `+1 (241) 555-2794`, on one line. */
export function PhoneCell({ value }: { value: string | null | undefined }) {
  if (!value) return <EmptyCell />;
  return <span className="nowrap">{formatPhone(value)}</span>;
}

/**
 * A path or URL in monospace that may break after a slash: otherwise a long one (an endpoint's
 * ingest path is 60 characters) is the table's widest cell, and it pushes the table wider than a
 * desktop screen and the last columns under the sticky Actions column.
 */
export function PathCell({ value }: { value: string }) {
  const parts = value.split(/(?<=\/)/);
  return (
    <Text ff="monospace" size="xs" span>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </Text>
  );
}
