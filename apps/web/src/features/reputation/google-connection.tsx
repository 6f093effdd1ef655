import { formatMoment } from '@admin/shared';
import {
  GOOGLE_PULL_PATH,
  type GoogleConnection,
  type GoogleLocationRow,
  type googleLocationsPageSchema,
} from '@admin/shared/resources/reviews-google';
import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiError, api, messagesOf, request } from '../../lib/http.ts';

type LocationsPage = z.infer<typeof googleLocationsPageSchema>;
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const KEY = ['reviews-google'];

/**
 * "Google connection" on the Reputation Panel (issue 21, item 1): the current client's Google
 * Business Profile account and refresh token (stored encrypted; shown only as stored), which
 * Google location each location's reviews are pulled from, the last pull and its error, and Pull
 * now. Without an OAuth client on the server the pull is off, and the dialog says so.
 */
export function GoogleConnectionButton() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Google connection
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Google connection" size="lg">
        {opened && <GoogleConnectionPanel />}
      </Modal>
    </>
  );
}

function GoogleConnectionPanel() {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: KEY, queryFn: () => api.get<{ data: GoogleConnection }>(GOOGLE_PULL_PATH) });
  const data = state.data?.data;
  if (state.error) return <Alert color="red">{errorText(state.error)}</Alert>;
  if (!data) return <Text size="sm">Loading…</Text>;
  const reload = () => void queryClient.invalidateQueries({ queryKey: KEY });
  return (
    <Stack gap="md">
      {!data.enabled && (
        <Alert color="yellow" variant="light" role="status" title="The Google review pull is off">
          The server has no Google OAuth client configured (GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET). A connection can be
          saved, but no review is pulled until it is.
        </Alert>
      )}
      <ConnectionForm connection={data.connection} onSaved={reload} />
      {data.connection && <LocationMapping enabled={data.enabled} />}
    </Stack>
  );
}

function ConnectionForm({ connection, onSaved }: { connection: GoogleConnection['connection']; onSaved(): void }) {
  const [account, setAccount] = useState(connection?.account ?? '');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setErrors({});
    try {
      await api.put(GOOGLE_PULL_PATH, { account: account.trim(), ...(token.trim() ? { refresh_token: token.trim() } : {}) });
      setToken('');
      notifications.show({ color: 'green', message: 'Saved the Google connection.' });
      onSaved();
    } catch (e) {
      setErrors(e instanceof ApiError ? { ...messagesOf(e), form: e.message } : { form: errorText(e) });
    } finally {
      setBusy(false);
    }
  }

  async function disconnect() {
    try {
      await request('DELETE', GOOGLE_PULL_PATH);
      setAccount('');
      notifications.show({ color: 'green', message: 'Cleared the Google connection and its location mapping.' });
      onSaved();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Disconnect refused', message: errorText(e) });
    }
  }

  return (
    <Stack gap="xs">
      {connection?.last_error && (
        <Alert color="red" variant="light" title="The last pull failed">
          {connection.last_error}
        </Alert>
      )}
      <TextInput
        label="Account"
        description="The Google Business Profile account, e.g. accounts/1234567890"
        value={account}
        onChange={(e) => setAccount(e.currentTarget.value)}
        error={errors.account}
        required
      />
      <PasswordInput
        label="Refresh token"
        description={
          connection ? 'A token is stored; leave this empty to keep it.' : 'The OAuth refresh token Google gave for this account.'
        }
        placeholder={connection ? 'stored' : ''}
        value={token}
        onChange={(e) => setToken(e.currentTarget.value)}
        error={errors.refresh_token}
        required={!connection}
      />
      {errors.form && !errors.account && !errors.refresh_token && (
        <Text size="sm" c="red.8" role="alert">
          {errors.form}
        </Text>
      )}
      <Group justify="flex-end">
        {connection && (
          <Button variant="subtle" color="red" onClick={() => void disconnect()}>
            Disconnect
          </Button>
        )}
        <Button onClick={() => void save()} loading={busy}>
          Save connection
        </Button>
      </Group>
    </Stack>
  );
}

function LocationMapping({ enabled }: { enabled: boolean }) {
  const [q, setQ] = useState('');
  const pages = useInfiniteQuery({
    queryKey: [...KEY, 'locations', q],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      api.get<LocationsPage>(`${GOOGLE_PULL_PATH}/locations`, {
        query: { ...(q ? { q } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const rows = pages.data?.pages.flatMap((p) => p.data) ?? [];
  const zone = pages.data?.pages[0]?.zone ?? null;
  return (
    <Stack gap="xs">
      <Text fw={600}>Locations</Text>
      <TextInput label="Search locations" value={q} onChange={(e) => setQ(e.currentTarget.value)} />
      <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {rows.map((row) => (
          <LocationRow key={row.location_id} row={row} zone={zone} enabled={enabled} onChanged={() => void pages.refetch()} />
        ))}
      </Stack>
      {pages.hasNextPage && (
        <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          More locations
        </Button>
      )}
    </Stack>
  );
}

function LocationRow({
  row,
  zone,
  enabled,
  onChanged,
}: {
  row: GoogleLocationRow;
  zone: string | null;
  enabled: boolean;
  onChanged(): void;
}) {
  const [value, setValue] = useState(row.google_location ?? '');
  const [error, setError] = useState<string | undefined>();
  const path = `${GOOGLE_PULL_PATH}/locations/${row.location_id}`;
  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(undefined);
    try {
      await what();
      notifications.show({ color: 'green', message: done });
      onChanged();
    } catch (e) {
      if (e instanceof ApiError && messagesOf(e).google_location) setError(messagesOf(e).google_location);
      else notifications.show({ color: 'red', title: row.location_name, message: errorText(e) });
    }
  };
  return (
    <Paper withBorder p="xs" component="li">
      <Stack gap={4}>
        <TextInput
          label={`Google location of ${row.location_name}`}
          placeholder="locations/1234567890"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={error}
        />
        {row.google_location && (
          <Text size="xs" c="dimmed">
            Last pulled: {row.last_pulled_at ? formatMoment(row.last_pulled_at, zone) : 'never'} · Next:{' '}
            {row.next_pull_at ? formatMoment(row.next_pull_at, zone) : '—'} · Reviews read: {row.reviews_seen}
          </Text>
        )}
        {row.last_error && (
          <Text size="xs" c="red.8">
            Last error: {row.last_error}
          </Text>
        )}
        <Group gap="xs" justify="flex-end">
          {row.google_location && (
            <>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => void act(() => request('DELETE', path), `${row.location_name} is no longer pulled.`)}
              >
                Stop pulling
              </Button>
              <Button
                size="compact-sm"
                variant="light"
                disabled={!enabled}
                onClick={() => void act(() => api.post(`${path}/pull`), `A pull of ${row.location_name} starts within a minute.`)}
              >
                Pull now
              </Button>
            </>
          )}
          <Button
            size="compact-sm"
            onClick={() =>
              void act(() => api.put(path, { google_location: value.trim() }), `${row.location_name} is pulled from ${value.trim()}.`)
            }
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
