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

/**
 * A confirmed row action: the question, Cancel, and the action's button; a refusal's reason stays in
 * the dialog (the server's 409 or 422 message) and, when `once`, the button is not offered again.
 */
function ConfirmAction(props: {
  title: string;
  body: string;
  label: string;
  color?: string;
  errorTitle?: string;
  once?: boolean;
  run(): Promise<unknown>;
  done: string;
  onClose(): void;
  onDone(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    try {
      await props.run();
      notifications.show({ color: 'green', message: props.done });
      props.onClose();
      props.onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <Stack gap="sm">
        <Text size="sm">{props.body}</Text>
        {error && (
          <Alert color="red" title={props.errorTitle}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button color={props.color} onClick={() => void confirm()} loading={busy} disabled={props.once === true && error !== null}>
            {props.label}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ResendDialog({ row, who, onClose, onDone }: DialogProps) {
  return (
    <ConfirmAction
      title="Send a review reminder?"
      body={`${who} gets one reminder by ${row.channel === 'sms' ? 'SMS' : 'e-mail'} with the review links still open. Only one reminder is ever sent.`}
      label="Send reminder"
      errorTitle="Resend invite refused"
      once
      run={() => post(row.id, 'resend')}
      done={`Sent ${who} a reminder.`}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

function UnmatchDialog({ row, who, onClose, onDone }: DialogProps) {
  return (
    <ConfirmAction
      title="Unmatch this review?"
      body={`The review stays, but no longer counts as ${who}'s; the invitation goes back to open until another review matches it.`}
      label="Unmatch"
      color="red"
      run={() => post(row.id, 'unmatch')}
      done={`Unmatched the review from ${who}'s invitation.`}
      onClose={onClose}
      onDone={onDone}
    />
  );
}
