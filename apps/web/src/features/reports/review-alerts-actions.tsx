import { type ReviewAlertReportRow, reviewAlertReasonText, reviewAlertReportResource } from '@admin/shared';
import { Anchor, Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../lib/http.ts';
import { reviewHref, rowTitle } from './review-alerts-format.ts';

/**
 * A row's actions: open the review on its site (a new tab), and, for a failed delivery, Resend
 * failed alert after a confirmation. Resend re-queues it; the alert engine sends it on its next
 * pass, so the row then reads Pending until it is sent or fails again.
 */
export function ReviewAlertRowActions({ row, onResent }: { row: ReviewAlertReportRow; onResent: () => Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const href = reviewHref(row.url);
  const title = rowTitle(row);

  async function resend() {
    setBusy(true);
    setError(null);
    try {
      await api.post(`${reviewAlertReportResource.path}/${row.id}/resend`);
      setConfirming(false);
      notifications.show({ color: 'green', message: `Resending the ${title}` });
      await onResent();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group gap={4} wrap="nowrap">
      {href && (
        <Anchor
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          size="xs"
          aria-label={`Open the review by ${row.reviewer ?? 'its reviewer'}`}
        >
          Open review
        </Anchor>
      )}
      {row.delivery_status === 'failed' && (
        <Button size="compact-xs" variant="subtle" color="orange" aria-label={`Resend the ${title}`} onClick={() => setConfirming(true)}>
          Resend
        </Button>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Resend failed alert?" centered>
        <Text size="sm">
          The {title} failed{row.reason ? ` (${reviewAlertReasonText(row.reason).toLowerCase()})` : ''}. It will be sent again through the
          review alert engine, with the messenger's suppression and opt-out checks.
        </Text>
        {error && (
          <Text size="sm" c="red" mt="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void resend()}>
            Resend alert
          </Button>
        </Group>
      </Modal>
    </Group>
  );
}
