import {
  type DataFeed,
  dataFeedResource,
  FEED_FILE_LABELS,
  FEED_RUN_STATUS_LABELS,
  type FeedRowError,
  type FeedRunStarted,
  type FeedValidation,
} from '@admin/shared/resources/data-feeds';
import { type FeedRunDetail, runStatusText, skippedText } from '@admin/shared/resources/survey-manager-logs';
import { Alert, Anchor, Button, FileInput, Group, Menu, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { GuardedModal, useGuardedClose } from '../../components/discard-guard.tsx';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { RowMenu } from '../../components/row-menu.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { downloadCsv } from '../../lib/download.ts';
import { api } from '../../lib/http.ts';
import { followRun } from '../../lib/run-progress.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The per-row errors of a dry run or a run: the row's line in the file (the header is line 1), column, why. */
function RowErrors({ errors, total }: { errors: FeedRowError[]; total: number }) {
  if (errors.length === 0) return null;
  return (
    <Stack gap={4}>
      <Table striped withTableBorder aria-label="Row errors">
        <TableHead labels={['Line', 'Column', 'Error']} />
        <Table.Tbody>
          {errors.map((e) => (
            <Table.Tr key={`${e.row_number}-${e.column}-${e.message}`}>
              <Table.Td>{e.row_number}</Table.Td>
              <Table.Td>{e.column ?? ''}</Table.Td>
              <Table.Td>{e.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > errors.length && (
        <Text size="xs" c="dimmed">
          The first {errors.length} of {total} rows with errors.
        </Text>
      )}
    </Stack>
  );
}

const skippedOf = (run: FeedRunDetail) => Object.values(run.rows_skipped).reduce((a, b) => a + b, 0);

/**
 * Upload CSV: choose a file, **Validate file** (the dry run: what would be accepted, each bad row's
 * error; nothing written) and **Run import** (a run: the good rows become survey requests, the bad
 * ones are stored with their errors), with the run's counts and a link to its log. A file chosen
 * and not yet sent makes closing ask first.
 */
export function UploadAction({ row, list }: { row: DataFeed; list: ResourceList<DataFeed> }) {
  const [open, setOpen] = useKeptState(`upload:${row.id}`, false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        aria-label={`Upload CSV to ${row.name}`}
        onClick={() => setOpen(true)}
        disabled={row.status !== 'active'}
      >
        Upload CSV
      </Button>
      <GuardedModal opened={open} onClose={() => setOpen(false)} title={`Upload CSV to ${row.name}`} size="lg">
        {/* Mounted only while open, so each opening starts with no file. */}
        {open && <UploadForm row={row} list={list} onClose={() => setOpen(false)} />}
      </GuardedModal>
    </>
  );
}

function UploadForm({ row, list, onClose }: { row: DataFeed; list: ResourceList<DataFeed>; onClose(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<'validate' | 'run' | null>(null);
  const [checked, setChecked] = useState<FeedValidation | null>(null);
  const [run, setRun] = useState<FeedRunDetail | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Stops following the run when the dialog closes (the run goes on; Survey Manager Logs shows it).
  const following = useRef(new AbortController());
  useEffect(() => () => following.current.abort(), []);

  const choose = (next: File | null) => {
    setFile(next);
    setChecked(null);
    setRun(null);
    setError(null);
  };
  const send = async (what: 'validate' | 'run') => {
    if (!file) return;
    setBusy(what);
    setError(null);
    try {
      if (what === 'validate') {
        setChecked((await api.upload<{ data: FeedValidation }>(`${dataFeedResource.path}/${row.id}/validate`, file)).data);
      } else {
        // The file is stored as a run at once; the workers then admit its rows, followed here.
        const { data: started } = await api.upload<{ data: FeedRunStarted }>(`${dataFeedResource.path}/${row.id}/upload`, file);
        setProgress(`Stored ${started.rows_read.toLocaleString('en-US')} rows; admitting them…`);
        const done = await followRun(started.id, (r) => setProgress(runStatusText(r)), following.current.signal);
        setRun(done);
        notifications.show({
          color: done.run_status === 'failed' ? 'red' : 'green',
          message: `Imported ${file.name}: ${FEED_RUN_STATUS_LABELS[done.run_status]}`,
        });
        await list.refresh();
      }
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };
  // Asks only before anything was sent: after a check or a run, the answer is on screen and the file still on disk.
  const close = useGuardedClose(file !== null && checked === null && run === null && error === null, onClose);

  return (
    <Stack gap="sm">
      <FileInput
        label={FEED_FILE_LABELS.csv}
        accept=".csv,.txt,text/csv"
        value={file}
        onChange={choose}
        clearable
        placeholder="Choose a file"
      />
      <Text size="xs" c="dimmed">
        Read with this feed’s delimiter, header and date format, and mapped by its field mapping.
      </Text>
      {progress && (
        <Text size="sm" aria-live="polite">
          {progress}
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {checked && !run && (
        <Alert color={checked.rows_invalid > 0 ? 'orange' : 'green'} variant="light" role="status" title="Validation">
          <Stack gap="xs">
            <Text size="sm">
              {checked.rows_read} rows read: {checked.rows_valid} valid, {checked.rows_invalid} with errors. Nothing was imported.
            </Text>
            <RowErrors errors={checked.errors} total={checked.rows_invalid} />
          </Stack>
        </Alert>
      )}
      {run && (
        <Alert
          color={run.run_status === 'succeeded' ? 'green' : run.run_status === 'partial' ? 'orange' : 'red'}
          variant="light"
          role="status"
          title={`Run ${FEED_RUN_STATUS_LABELS[run.run_status]}`}
        >
          <Stack gap="xs">
            <Text size="sm">
              Read {run.rows_read} · Accepted {run.rows_accepted} · Skipped {skippedOf(run)} · Invalid {run.rows_invalid} · Scheduled{' '}
              {run.scheduled}
            </Text>
            {Object.entries(run.rows_skipped).length > 0 && (
              <Text size="xs" c="dimmed">
                {skippedText(run.rows_skipped)}
              </Text>
            )}
            {run.error && <Text size="sm">{run.error}</Text>}
            <RowErrors errors={run.row_errors} total={run.rows_invalid} />
            <Anchor component={Link} to={`/admin/survey-admin/logs?feed=${row.id}`} size="sm">
              View runs
            </Anchor>
          </Stack>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          Close
        </Button>
        <Button variant="light" disabled={!file || run !== null} loading={busy === 'validate'} onClick={() => void send('validate')}>
          Validate file
        </Button>
        <Button disabled={!file || run !== null} loading={busy === 'run'} onClick={() => void send('run')}>
          Run import
        </Button>
      </Group>
    </Stack>
  );
}

/** The feed's other actions: Run now (an SFTP pull), the sample template CSV, its runs in Survey Manager Logs. */
export function FeedMenu({ row }: { row: DataFeed }) {
  const runNow = async () => {
    try {
      const { data } = await api.post<{ data: { message: string } }>(`${dataFeedResource.path}/${row.id}/run`);
      notifications.show({ color: 'green', message: data.message });
    } catch (e) {
      notifications.show({ color: 'red', message: message(e) });
    }
  };
  const template = async () => {
    try {
      await downloadCsv(`${dataFeedResource.path}/${row.id}/template`, {}, () => undefined);
    } catch (e) {
      notifications.show({ color: 'red', message: message(e) });
    }
  };
  return (
    <RowMenu label="More" name={`More actions for ${row.name}`}>
      {row.source_type === 'sftp' && (
        <Menu.Item onClick={() => void runNow()} disabled={row.status !== 'active'}>
          Run now
        </Menu.Item>
      )}
      <Menu.Item onClick={() => void template()}>Download sample template CSV</Menu.Item>
      <Menu.Item component={Link} to={`/admin/survey-admin/logs?feed=${row.id}`}>
        View runs
      </Menu.Item>
    </RowMenu>
  );
}
