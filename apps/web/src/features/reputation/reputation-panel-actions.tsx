import { type MatchCandidate, REPUTATION_PATH, type ReputationItem, reviewRatingText, reviewSiteLabel } from '@admin/shared';
import { Alert, Button, Group, Loader, Menu, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RowMenu } from '../../components/row-menu.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const post = (id: number, action: string, body: object = {}) =>
  api.post<{ data: { id: number } }>(`${REPUTATION_PATH}/${id}/${action}`, body, { host: 'reputation' });

/** Resend invite while the invitation is open and unreminded; Match manually while unmatched; Unmatch once matched. */
export function canResend(r: ReputationItem): boolean {
  return r.reminder_sent_at === null && (r.status === 'invited' || r.status === 'clicked');
}

/**
 * A row's actions (domain.md §10), each the amplification module's route: Resend invite (confirmed
 * first: a customer gets one reminder, ever; the server's 409 says why one is refused), Match review
 * manually (choose among the location's unmatched reviews on that site, then confirm) and Unmatch
 * (confirmed first). Each reloads the list.
 */
export function ReputationRowActions({ row, onChanged }: { row: ReputationItem; onChanged(): void }) {
  const [dialog, setDialog] = useState<'resend' | 'match' | 'unmatch' | null>(null);
  const who = row.customer_name || `invitation ${row.id}`;

  return (
    <>
      <RowMenu label="More" name={`More actions for ${who}`}>
        <Menu.Item disabled={!canResend(row)} onClick={() => setDialog('resend')}>
          Resend invite
        </Menu.Item>
        {row.review_id === null ? (
          <Menu.Item onClick={() => setDialog('match')}>Match review manually</Menu.Item>
        ) : (
          <Menu.Item onClick={() => setDialog('unmatch')}>Unmatch</Menu.Item>
        )}
      </RowMenu>
      {dialog === 'resend' && <ResendDialog row={row} who={who} onClose={() => setDialog(null)} onDone={onChanged} />}
      {dialog === 'match' && <MatchDialog row={row} who={who} onClose={() => setDialog(null)} onDone={onChanged} />}
      {dialog === 'unmatch' && <UnmatchDialog row={row} who={who} onClose={() => setDialog(null)} onDone={onChanged} />}
    </>
  );
}

type DialogProps = { row: ReputationItem; who: string; onClose(): void; onDone(): void };

function candidateLabel(c: MatchCandidate, zone: string | null): string {
  const rating = reviewRatingText({ review_rating: c.rating, review_recommend: c.recommend });
  return `${c.authorName}${rating ? ` · ${rating}` : ''} · ${formatDateTime(c.reviewCreatedAt, zone)} · score ${Math.round(c.score)}`;
}

function MatchDialog({ row, who, onClose, onDone }: DialogProps) {
  const [chosen, setChosen] = useState<string | null>(row.suggested_review_id === null ? null : String(row.suggested_review_id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const candidates = useQuery({
    queryKey: ['reputation-panel', 'candidates', row.id],
    queryFn: ({ signal }) => api.get<{ data: MatchCandidate[] }>(`${REPUTATION_PATH}/${row.id}/candidates`, { signal, host: 'reputation' }),
    meta: { what: 'unmatched reviews' },
  });
  async function confirm() {
    if (chosen === null) {
      setError('The Review field is required');
      return;
    }
    setBusy(true);
    try {
      await post(row.id, 'match', { reviewId: Number(chosen) });
      notifications.show({ color: 'green', message: `Matched ${who}'s invitation to the review.` });
      onClose();
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  const list = candidates.data?.data ?? [];
  return (
    <Modal opened onClose={onClose} title={`Match a ${reviewSiteLabel(row.site)} review to ${who}`} size="lg">
      <Stack gap="sm">
        {candidates.isPending && <Loader size="sm" aria-label="Loading unmatched reviews" />}
        {candidates.error && <Alert color="red">{candidates.error.message}</Alert>}
        {candidates.isSuccess && list.length === 0 && (
          <Text size="sm">No unmatched {reviewSiteLabel(row.site)} review of this location to choose from.</Text>
        )}
        {list.length > 0 && (
          <Radio.Group label="Review" value={chosen} onChange={setChosen} error={error ?? undefined}>
            <Stack gap="xs" mt="xs">
              {list.map((c) => (
                <Radio
                  key={c.id}
                  value={String(c.id)}
                  label={candidateLabel(c, row.client_timezone)}
                  description={c.excerpt ?? 'No text'}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {error && list.length === 0 && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={busy} disabled={list.length === 0}>
            Confirm match
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ResendDialog({ row, who, onClose, onDone }: DialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    try {
      await post(row.id, 'resend');
      notifications.show({ color: 'green', message: `Sent ${who} a reminder.` });
      onClose();
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title="Send a review reminder?">
      <Stack gap="sm">
        <Text size="sm">
          {who} gets one reminder by {row.channel === 'sms' ? 'SMS' : 'e-mail'} with the review links still open. Only one reminder is ever
          sent.
        </Text>
        {error && (
          <Alert color="red" title="Resend invite refused">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={busy} disabled={error !== null}>
            Send reminder
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function UnmatchDialog({ row, who, onClose, onDone }: DialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    try {
      await post(row.id, 'unmatch');
      notifications.show({ color: 'green', message: `Unmatched the review from ${who}'s invitation.` });
      onClose();
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title="Unmatch this review?">
      <Stack gap="sm">
        <Text size="sm">
          The review stays, but no longer counts as {who}'s; the invitation goes back to open until another review matches it.
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={busy}>
            Unmatch
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
