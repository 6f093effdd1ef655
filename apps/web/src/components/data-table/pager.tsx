import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * Which rows a page shows and of how many, e.g. "Showing 51–100 of 588", or "of about 1,200"
 * when the count is an estimate (issue 19, item 16: page 2 had said "Showing 50 of 588").
 */
export function pageSummary(props: { from: number; shownCount: number; total: number | undefined; totalIsEstimate: boolean | undefined }) {
  const total = props.total === undefined ? '…' : `${props.totalIsEstimate ? 'about ' : ''}${props.total.toLocaleString('en-US')}`;
  if (props.shownCount === 0) return `Showing 0 of ${total}`;
  const last = props.from + props.shownCount - 1;
  return `Showing ${props.from.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total}`;
}

/** Cursor paging: First page, Previous page and Next page, beside which rows are shown. */
export function Pager(props: {
  total: number | undefined;
  totalIsEstimate: boolean | undefined;
  /** The 1-based position of the page's first row. */
  from: number;
  shownCount: number;
  onFirst: (() => void) | null;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
}) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed" aria-live="polite">
        {pageSummary(props)}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={!props.onFirst} onClick={() => props.onFirst?.()}>
          First page
        </Button>
        <Button variant="default" size="xs" disabled={!props.onPrevious} onClick={() => props.onPrevious?.()}>
          Previous page
        </Button>
        <Button variant="default" size="xs" disabled={!props.onNext} onClick={() => props.onNext?.()}>
          Next page
        </Button>
      </Group>
    </Group>
  );
}

/**
 * Cursor paging with a way back: remembers the cursors of the pages before this one. Give it a
 * `key` that changes with the filters so a new query starts a new history. `page` is the page's
 * number as the URL keeps it (a reload on page 3 still says "101–150"); the rows before it are
 * counted as full pages of `perPage`.
 */
export function CursorPager(props: {
  cursor: string | undefined;
  nextCursor: string | null | undefined;
  total: number | undefined;
  totalIsEstimate: boolean | undefined;
  shownCount: number;
  page: number;
  perPage: number;
  onCursor(cursor: string | undefined, page: number): void;
}) {
  const [history, setHistory] = useState<string[]>([]);
  const { cursor, nextCursor, onCursor, page } = props;
  return (
    <Pager
      total={props.total}
      totalIsEstimate={props.totalIsEstimate}
      from={cursor ? (page - 1) * props.perPage + 1 : 1}
      shownCount={props.shownCount}
      onFirst={
        cursor
          ? () => {
              setHistory([]);
              onCursor(undefined, 1);
            }
          : null
      }
      onPrevious={
        cursor
          ? () => {
              const previous = history[history.length - 1] || undefined;
              setHistory(history.slice(0, -1));
              onCursor(previous, previous ? page - 1 : 1);
            }
          : null
      }
      onNext={
        nextCursor
          ? () => {
              setHistory([...history, cursor ?? '']);
              onCursor(nextCursor, page + 1);
              window.scrollTo(0, 0);
            }
          : null
      }
    />
  );
}
