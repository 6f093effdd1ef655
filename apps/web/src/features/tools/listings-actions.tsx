import { directoryLabel, LISTING_ACTION_LABELS, type Listing, NOTE_MAX } from '@admin/shared';
import { Button, Group, Menu, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RowMenu } from '../../components/row-menu.tsx';
import { ApiError, api } from '../../lib/http.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** How a row is named in menus and dialogs: "Lakeside Dental on Yelp". */
export const listingName = (l: Listing) => `${l.location_name} on ${directoryLabel(l.directory)}`;

type Dialog = 'url' | 'updated' | 'not-mine' | 'duplicate';

/**
 * A listing's More menu (domain.md §12): Scan this location, Mark as mine, Not mine and Flag
 * duplicate (both confirmed first: they change its status until someone undoes them), Set
 * listing URL and Mark updated (a dialog each). `onChanged` reloads the list; `onScan` starts a scan.
 */
export function ListingActions({ row, onChanged, onScan }: { row: Listing; onChanged(): void; onScan(locationId: string): void }) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const name = listingName(row);

  async function quick(action: 'mine', done: string) {
    try {
      await api.post(`/api/listings/${row.id}/${action}`, { updated_at: row.updated_at });
      notifications.show({ color: 'green', message: done });
      onChanged();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Not saved', message: errorText(e) });
    }
  }

  return (
    <>
      <RowMenu label="More" name={`More actions for ${name}`}>
        <Menu.Item onClick={() => onScan(row.location_id)}>Scan this location</Menu.Item>
        <Menu.Item onClick={() => setDialog('url')}>Set listing URL</Menu.Item>
        {!['not_found', 'suppressed', 'not_checked'].includes(row.listing_status) && (
          <Menu.Item onClick={() => setDialog('updated')}>Mark updated</Menu.Item>
        )}
        {row.external_id !== null && <Menu.Divider />}
        {/* Mine / Not mine need a listing read from the directory (a not-found or not-checked row holds none). */}
        {row.external_id !== null && row.is_mine !== true && (
          <Menu.Item onClick={() => void quick('mine', `${name} is marked as mine.`)}>Mark as mine</Menu.Item>
        )}
        {row.external_id !== null && row.is_mine !== false && (
          <Menu.Item color="red" onClick={() => setDialog('not-mine')}>
            Not mine
          </Menu.Item>
        )}
        {row.listing_status !== 'duplicate' && row.external_id !== null && (
          <Menu.Item color="red" onClick={() => setDialog('duplicate')}>
            Flag duplicate
          </Menu.Item>
        )}
      </RowMenu>
      {dialog && (
        <ActionDialog
          row={row}
          kind={dialog}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            onChanged();
          }}
        />
      )}
    </>
  );
}

const TITLES: Record<Dialog, string> = {
  url: 'Set listing URL',
  updated: 'Mark updated',
  'not-mine': 'Not mine?',
  duplicate: 'Flag duplicate?',
};
const EFFECTS: Partial<Record<Dialog, string>> = {
  'not-mine': 'This listing belongs to another business: it is suppressed, and scans keep it out of the score. Mark as mine undoes it.',
  duplicate:
    'This listing duplicates the best listing of this location on the same directory: it is shown as Duplicate until it is removed there.',
};
const DONE: Record<Dialog, string> = {
  url: 'Listing URL saved',
  updated: 'Marked updated: pending until a scan finds it right',
  'not-mine': 'Marked as not mine',
  duplicate: 'Flagged as a duplicate',
};

/** One action's dialog: a field (URL, note) or a confirmation that says what the action does. */
function ActionDialog({ row, kind, onClose, onSaved }: { row: Listing; kind: Dialog; onClose(): void; onSaved(): void }) {
  const [url, setUrl] = useState(row.listing_url ?? '');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setErrors({});
    setGeneral(null);
    try {
      const body = kind === 'url' ? { listing_url: url } : kind === 'updated' ? { note } : {};
      await api.post(`/api/listings/${row.id}/${kind}`, { ...body, updated_at: row.updated_at });
      notifications.show({ color: 'green', message: `${listingName(row)}: ${DONE[kind]}` });
      onSaved();
    } catch (e) {
      const fields = e instanceof ApiError ? e.fieldErrors : {};
      const shown = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.join(' ')]));
      setErrors(shown);
      if (!shown.listing_url && !shown.note) setGeneral(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const destructive = kind === 'not-mine' || kind === 'duplicate';
  return (
    <Modal opened onClose={onClose} title={TITLES[kind]} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{listingName(row)}</Text>
          {EFFECTS[kind] && <Text size="sm">{EFFECTS[kind]}</Text>}
          {general && (
            <Text c="red" size="sm" role="alert">
              {general}
            </Text>
          )}
          {kind === 'url' && (
            <TextInput
              label={LISTING_ACTION_LABELS.listing_url}
              placeholder="e.g. https://www.yelp.com/biz/…"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={errors.listing_url}
              data-autofocus
            />
          )}
          {kind === 'updated' && (
            <Textarea
              label={LISTING_ACTION_LABELS.note}
              description="What was sent to the directory (optional)"
              maxLength={NOTE_MAX}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              error={errors.note}
              data-autofocus
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={destructive ? 'red' : undefined} loading={busy}>
              {kind === 'url' ? 'Save' : kind === 'updated' ? 'Mark updated' : kind === 'not-mine' ? 'Not mine' : 'Flag duplicate'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
