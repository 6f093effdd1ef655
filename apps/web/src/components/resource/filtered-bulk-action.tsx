import { Button, Group, List, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../lib/http.ts';
import type { ResourceList } from './use-resource-list.ts';

/** What `<path>/preview` answers: how many the action would change, in which clients, and the other filters in words when it names them. */
export type FilteredPreview = { count: number; scope: string; filters?: string[] };

/** The words of one action over a list's filter; every one is shown to the person as written. */
export type FilteredBulkAction<P extends FilteredPreview, R> = {
  /** `POST <path>/preview` counts, `POST <path>` acts; both take the list's filter. */
  path: string;
  /** The line beside the button. */
  note: string;
  /** The button's label, e.g. "Retry failed in this filter". */
  button: string;
  /** The dialog's title when the filter finds some, and when it finds none. */
  title(preview: P): string;
  emptyTitle: string;
  /** The dialog's sentence, for a count or for none. */
  explain(preview: P): string;
  /** The confirm button's verb: "Retry" gives "Retry 3". */
  verb: string;
  /** The notice of success, from the answer and the count confirmed. */
  done(result: R, confirmed: P): string;
  /** The notices' titles when counting and when acting fail. */
  countFailed: string;
  actFailed: string;
};

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * "Act on everything this filter matches" (Survey Processing's Retry failed, Unsent events'
 * Resend): the server first says how many and in which clients; the action then changes exactly
 * the count confirmed, or nothing when the filter finds another number by then (a 409), and the
 * new count is asked for again to confirm.
 */
export function FilteredBulkButton<Row, P extends FilteredPreview, R>({
  list,
  action,
}: {
  list: ResourceList<Row>;
  action: FilteredBulkAction<P, R>;
}) {
  const [busy, setBusy] = useState<'preview' | 'act' | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const filter = () => {
    const { columns: _columns, ...query } = list.exportQuery();
    return query;
  };

  async function ask() {
    setBusy('preview');
    try {
      setPreview((await api.post<{ data: P }>(`${action.path}/preview`, { filter: filter() })).data);
    } catch (e) {
      notifications.show({ color: 'red', title: action.countFailed, message: message(e) });
    } finally {
      setBusy(null);
    }
  }

  async function act(confirmed: P) {
    setBusy('act');
    try {
      const { data } = await api.post<{ data: R }>(action.path, { filter: filter(), confirmed: confirmed.count });
      notifications.show({ color: 'green', message: action.done(data, confirmed) });
      setPreview(null);
      await list.refresh();
    } catch (e) {
      notifications.show({ color: 'red', title: action.actFailed, message: message(e) });
      // The count changed meanwhile (409): show the new one to confirm.
      await ask();
    } finally {
      setBusy(null);
    }
  }

  const filters = preview?.filters ?? [];
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {action.note}
      </Text>
      <Button size="xs" variant="light" loading={busy === 'preview' && !preview} onClick={() => void ask()}>
        {action.button}
      </Button>
      <Modal
        opened={preview !== null}
        onClose={() => setPreview(null)}
        title={preview && preview.count > 0 ? action.title(preview) : action.emptyTitle}
        centered
      >
        {preview && (
          <>
            <Text size="sm">{action.explain(preview)}</Text>
            {filters.length > 0 && (
              <>
                <Text size="sm" mt="sm" fw={500}>
                  Filtered by
                </Text>
                <List size="sm">
                  {filters.map((f) => (
                    <List.Item key={f}>{f}</List.Item>
                  ))}
                </List>
              </>
            )}
            <Group justify="flex-end" mt="md">
              <Button variant="default" onClick={() => setPreview(null)}>
                {preview.count > 0 ? 'Cancel' : 'Close'}
              </Button>
              {preview.count > 0 && (
                <Button loading={busy === 'act'} onClick={() => void act(preview)}>
                  {action.verb} {preview.count.toLocaleString('en-US')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Modal>
    </Group>
  );
}
