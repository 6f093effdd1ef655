import { LISTING_SCAN_STATUS_LABELS, type ListingScan } from '@admin/shared';
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { downloadCsv } from '../../lib/download.ts';
import { api } from '../../lib/http.ts';

/** How often a running scan is asked how far it got. */
const POLL_MS = 1000;
const isRunning = (s: ListingScan | null | undefined) => s?.status === 'queued' || s?.status === 'running';
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The current client's latest scan, polled while it runs, and Scan now (one location, or every
 * active location of the client). When a scan ends, `onFinished` reloads the list.
 */
export function useListingScan(clientId: number | undefined, onFinished: () => void) {
  const latest = useQuery({
    queryKey: ['listings-tool-scan', clientId],
    queryFn: ({ signal }) => api.get<{ data: ListingScan | null }>('/api/listings/scans/latest', { signal }).then((r) => r.data),
    enabled: clientId !== undefined,
    refetchInterval: (q) => (isRunning(q.state.data) ? POLL_MS : false),
  });
  const scan = latest.data ?? null;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !isRunning(scan)) onFinished();
    wasRunning.current = isRunning(scan);
  }, [scan, onFinished]);
  async function start(locationId: string | null) {
    try {
      await api.post('/api/listings/scan', locationId ? { location_id: locationId } : {});
      notifications.show({
        color: 'green',
        message: locationId ? 'Scan of the location started' : 'Scan of every active location started',
      });
      wasRunning.current = true;
      await latest.refetch();
    } catch (e) {
      notifications.show({ color: 'red', title: 'Scan not started', message: errorText(e) });
    }
  }
  return { scan, running: isRunning(scan), start };
}

/** The scan's progress as a bar and words: "Scanned 3 of 10 locations (1 failed)". */
export function ScanProgress({ scan }: { scan: ListingScan | null }) {
  if (!scan) return null;
  const settled = scan.done + scan.failed;
  const value = scan.total === 0 ? 100 : Math.round((settled / scan.total) * 100);
  const words = `${LISTING_SCAN_STATUS_LABELS[scan.status]}: scanned ${scan.done} of ${scan.total} location${scan.total === 1 ? '' : 's'}${scan.failed > 0 ? ` (${scan.failed} failed)` : ''}`;
  return (
    <Stack gap={4} maw={420}>
      <Text size="sm" aria-live="polite">
        {words}
      </Text>
      <Progress value={value} aria-label="Scan progress" animated={isRunning(scan)} color={scan.failed > 0 ? 'orange' : 'blue'} />
      {scan.error && (
        <Text size="xs" c="dimmed">
          Last failure: {scan.error}
        </Text>
      )}
    </Stack>
  );
}

/** **Export fix list**: every field that does not match under the current filters, as CSV. */
export function FixListButton({ query }: { query: () => Record<string, string | string[]> }) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      const { columns: _columns, ...filters } = query();
      const { fileName } = await downloadCsv('/api/listings/fix-list', filters, () => undefined);
      notifications.show({ color: 'green', message: `Saved ${fileName}` });
    } catch (e) {
      notifications.show({ color: 'red', title: 'Export failed', message: errorText(e) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="default" size="sm" loading={busy} onClick={() => void run()}>
      Export fix list
    </Button>
  );
}

/** Scan now for the whole client, beside the progress of the latest scan. */
export function ScanBar(props: {
  clientName: string | null;
  scan: ListingScan | null;
  running: boolean;
  onScan(): void;
  fixList: () => Record<string, string | string[]>;
}) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          Client: <b>{props.clientName ?? 'none chosen — pick one in the client switcher'}</b>
        </Text>
        <ScanProgress scan={props.scan} />
      </Stack>
      <Group gap="xs">
        <FixListButton query={props.fixList} />
        <Button size="sm" onClick={props.onScan} loading={props.running} disabled={props.clientName === null}>
          Scan now
        </Button>
      </Group>
    </Group>
  );
}
