import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { downloadCsv } from '../../lib/download.ts';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** **Export CSV**: every row matching the current filters, the visible columns in screen order. */
export function ExportButton({ path, query }: { path: string; query: () => Record<string, string | string[]> }) {
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function run() {
    abort.current = new AbortController();
    setProgress(0);
    try {
      const { fileName, bytes } = await downloadCsv(path, query(), setProgress, abort.current.signal);
      notifications.show({ color: 'green', message: `Saved ${fileName} (${formatBytes(bytes)})` });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      console.error('Export failed', err);
      notifications.show({ color: 'red', title: 'Export failed', message: err instanceof Error ? err.message : String(err) });
    } finally {
      setProgress(null);
      abort.current = null;
    }
  }

  if (progress !== null) {
    return (
      <Button variant="light" size="sm" onClick={() => abort.current?.abort()} aria-live="polite">
        Exporting… {formatBytes(progress)} (cancel)
      </Button>
    );
  }
  return (
    <Button variant="default" size="sm" onClick={() => void run()}>
      Export CSV
    </Button>
  );
}
