import { type BulkPreview, failedInScope, type ProcessingItem, processingItemResource } from '@admin/shared/resources/survey-processing';
import { Button, Group, List, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { api } from '../../lib/http.ts';

const path = processingItemResource.path;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Retry failed over the current filter. It first asks the server what it would change and says it
 * ("Retry 3 failed invitations in all clients?", with the other filters in words); the retry then
 * changes exactly the count confirmed, or nothing when the filter finds another number by then
 * (issue 19, item 2).
 */
export function RetryFiltered({ list }: { list: ResourceList<ProcessingItem> }) {
  const [busy, setBusy] = useState<'preview' | 'retry' | null>(null);
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const filter = () => {
    const { columns: _columns, ...query } = list.exportQuery();
    return query;
  };

  async function ask() {
    setBusy('preview');
    try {
      setPreview((await api.post<{ data: BulkPreview }>(`${path}/retry/preview`, { filter: filter() })).data);
    } catch (e) {
      notifications.show({ color: 'red', title: 'Could not count the failed invitations', message: message(e) });
    } finally {
      setBusy(null);
    }
  }

  async function retry(confirmed: BulkPreview) {
    setBusy('retry');
    try {
      const { data } = await api.post<{ data: { changed: number } }>(`${path}/retry`, { filter: filter(), confirmed: confirmed.count });
      notifications.show({ color: 'green', message: `${failedInScope(data.changed, confirmed.scope)} scheduled again` });
      setPreview(null);
      await list.refresh();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Nothing was retried', message: message(e) });
      // The count changed meanwhile (409): show the new one to confirm.
      await ask();
    } finally {
      setBusy(null);
    }
  }

  const what = preview && failedInScope(preview.count, preview.scope);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        Every client’s invitations, unless the Clients filter narrows them.
      </Text>
      <Button size="xs" variant="light" loading={busy === 'preview' && !preview} onClick={() => void ask()}>
        Retry failed in this filter
      </Button>
      <Modal
        opened={preview !== null}
        onClose={() => setPreview(null)}
        title={preview && preview.count > 0 ? `Retry ${what}?` : 'No failed invitations to retry'}
        centered
      >
        {preview && (
          <>
            <Text size="sm">
              {preview.count > 0
                ? 'Each is scheduled to be sent again now; nothing else changes.'
                : `This filter finds no failed invitation in ${preview.scope}.`}
            </Text>
            {preview.filters.length > 0 && (
              <>
                <Text size="sm" mt="sm" fw={500}>
                  Filtered by
                </Text>
                <List size="sm">
                  {preview.filters.map((f) => (
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
                <Button loading={busy === 'retry'} onClick={() => void retry(preview)}>
                  Retry {preview.count.toLocaleString('en-US')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Modal>
    </Group>
  );
}
