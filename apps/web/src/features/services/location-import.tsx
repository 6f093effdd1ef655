import { LOCATION_FIELDS } from '@admin/shared/resources/locations';
import { Alert, Button, Code, FileInput, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ApiError, api } from '../../lib/http.ts';

/** Bulk import from a CSV file: every line is checked first; all lines are imported or none. */
export function LocationImport(props: { clientName: string; onImported(count: number): void; onCancel(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; lines: [string, string[]][] } | null>(null);

  async function run() {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const csv = await file.text();
      const { data } = await api.post<{ data: { imported: number } }>('/api/endpoints/import', { csv });
      props.onImported(data.imported);
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
        Adds locations to <b>{props.clientName}</b>. The first line names the columns, from: <Code>{LOCATION_FIELDS.join(', ')}</Code>.
        Every line is checked first; if any line has an error, nothing is imported.
      </Text>
      <FileInput label="CSV file" accept=".csv,text/csv" value={file} onChange={setFile} clearable placeholder="Choose a file" />
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
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button onClick={() => void run()} disabled={!file} loading={busy}>
          Import
        </Button>
      </Group>
    </Stack>
  );
}
