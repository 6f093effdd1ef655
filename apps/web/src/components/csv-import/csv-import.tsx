import { Alert, Button, Code, FileInput, Group, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { ApiError, api } from '../../lib/http.ts';
import { GuardedModal, useGuardedClose } from '../discard-guard.tsx';

type Props = {
  path: string;
  /** Plural, e.g. "locations". */
  noun: string;
  columns: readonly string[];
  /** How to fill special columns. */
  note?: ReactNode;
  clientName: string;
  opened: boolean;
  onClose(): void;
  /** After a successful import (the dialog has closed and said how many arrived). */
  onImported(): void | Promise<void>;
};

/**
 * The "Import CSV" dialog: bulk import from a file into the current client
 * (`POST <collection>/import`). The server checks every line first and imports all lines or
 * none; the failing lines are listed here. With a file chosen and not yet sent, closing asks first.
 */
export function CsvImportDialog(props: Props) {
  return (
    <GuardedModal opened={props.opened} onClose={props.onClose} title={`Import ${props.noun}`} size="lg">
      {props.opened && <CsvImportForm {...props} />}
    </GuardedModal>
  );
}

function CsvImportForm(props: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; lines: [string, string[]][] } | null>(null);
  // A file chosen and not yet sent asks before closing; once the server has answered (the failing
  // lines listed), closing loses nothing that is not still in the file.
  const cancel = useGuardedClose(file !== null && problem === null, props.onClose);
  const choose = (next: File | null) => {
    setFile(next);
    setProblem(null);
  };

  async function run() {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const csv = await file.text();
      const { data } = await api.post<{ data: { imported: number } }>(props.path, { csv });
      props.onClose();
      notifications.show({ color: 'green', message: `Imported ${data.imported} ${props.noun}` });
      await props.onImported();
    } catch (e) {
      if (e instanceof ApiError) setProblem({ message: e.message, lines: Object.entries(e.fieldErrors) });
      else setProblem({ message: String(e), lines: [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm">
        Adds {props.noun} to <b>{props.clientName}</b>. The first line names the columns, from: <Code>{props.columns.join(', ')}</Code>.
        Every line is checked first; if any line has an error, nothing is imported.
      </Text>
      {props.note && <Text size="sm">{props.note}</Text>}
      <FileInput label="CSV file" accept=".csv,text/csv" value={file} onChange={choose} clearable placeholder="Choose a file" />
      {problem && (
        <Alert color="red" variant="light" role="alert" title={problem.message}>
          <List size="sm">
            {problem.lines.map(([line, messages]) => (
              <List.Item key={line}>
                {line}: {messages.join('; ')}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button onClick={() => void run()} disabled={!file} loading={busy}>
          Import
        </Button>
      </Group>
    </Stack>
  );
}
