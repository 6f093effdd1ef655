import { type SurveyAlertEvent, surveyAlertEventResource } from '@admin/shared/resources/survey-alert-events';
import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { api } from '../../lib/http.ts';

const path = surveyAlertEventResource.path;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
type Preview = { count: number; scope: string };
const counted = (n: number) => `${n.toLocaleString('en-US')} unsent alert${n === 1 ? '' : 's'}`;

/**
 * Resend over the current filter, confirmed as Survey Processing's "Retry failed in this filter"
 * is (survey-processing-retry.tsx): the server first says how many and in which clients; the resend
 * then changes exactly the count confirmed, or nothing when the filter finds another number by then.
 */
export function ResendFiltered({ list }: { list: ResourceList<SurveyAlertEvent> }) {
  const [busy, setBusy] = useState<'preview' | 'resend' | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const filter = () => {
    const { columns: _columns, ...query } = list.exportQuery();
    return query;
  };

  async function ask() {
    setBusy('preview');
    try {
      setPreview((await api.post<{ data: Preview }>(`${path}/resend/preview`, { filter: filter() })).data);
    } catch (e) {
      notifications.show({ color: 'red', title: 'Could not count the unsent alerts', message: message(e) });
    } finally {
      setBusy(null);
    }
  }

  async function resend(confirmed: Preview) {
    setBusy('resend');
    try {
      const { data } = await api.post<{ data: { changed: number; delivered: number } }>(`${path}/resend`, {
        filter: filter(),
        confirmed: confirmed.count,
      });
      notifications.show({
        color: 'green',
        message: `${counted(data.changed)} resent, ${data.delivered.toLocaleString('en-US')} delivered`,
      });
      setPreview(null);
      await list.refresh();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Nothing was resent', message: message(e) });
      await ask();
    } finally {
      setBusy(null);
    }
  }

  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        Survey alerts that did not reach their recipient, in every client unless the Clients filter narrows them.
      </Text>
      <Button size="xs" variant="light" loading={busy === 'preview' && !preview} onClick={() => void ask()}>
        Resend all in this filter
      </Button>
      <Modal
        opened={preview !== null}
        onClose={() => setPreview(null)}
        title={preview && preview.count > 0 ? `Resend ${counted(preview.count)} in ${preview.scope}?` : 'No unsent alerts to resend'}
        centered
      >
        {preview && (
          <>
            <Text size="sm">
              {preview.count > 0
                ? 'Each goes again to its recipients as the rule names them today.'
                : 'This filter finds no unsent or retrying alert.'}
            </Text>
            <Group justify="flex-end" mt="md">
              <Button variant="default" onClick={() => setPreview(null)}>
                {preview.count > 0 ? 'Cancel' : 'Close'}
              </Button>
              {preview.count > 0 && (
                <Button loading={busy === 'resend'} onClick={() => void resend(preview)}>
                  Resend {preview.count.toLocaleString('en-US')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Modal>
    </Group>
  );
}
