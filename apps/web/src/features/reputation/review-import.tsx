import { REVIEW_CSV_COLUMNS, REVIEW_CSV_EXAMPLE, REVIEW_OUTCOME_LABELS, type ReviewImportAnswer, type ReviewOutcome } from '@admin/shared';
import { Alert, Badge, Button, Code, FileInput, Group, List, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { GuardedModal, useGuardedClose } from '../../components/discard-guard.tsx';
import { ApiError, api } from '../../lib/http.ts';

const IMPORT_PATH = '/api/reviews/import';
const OUTCOME_COLOR: Record<ReviewOutcome, string> = { created: 'green', updated: 'blue', unchanged: 'gray', refused: 'red' };

/** One CSV line (RFC 4180 quoting where a field needs it). */
const toCsvRow = (cells: readonly string[]) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');

/** The template: the columns and one example line, made here (nothing to fetch). */
function downloadTemplate() {
  const text = `${toCsvRow([...REVIEW_CSV_COLUMNS])}\r\n${toCsvRow(REVIEW_CSV_COLUMNS.map((c) => REVIEW_CSV_EXAMPLE[c]))}\r\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'reviews-template.csv';
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

const countsLine = (c: ReviewImportAnswer['counts']) =>
  `${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged, ${c.refused} refused`;

/**
 * "Import reviews" on the Reputation Panel (issue 21, item 1): a CSV of the current client's
 * reviews, checked first (Check file: the server's dry run, line by line, nothing kept), then
 * Import, which writes the accepted lines with the same rules (refused lines are skipped).
 */
export function ReviewImportButton(props: { onImported: () => void }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Import reviews
      </Button>
      <GuardedModal opened={opened} onClose={() => setOpened(false)} title="Import reviews" size="lg">
        {opened && <ReviewImportForm onClose={() => setOpened(false)} onImported={props.onImported} />}
      </GuardedModal>
    </>
  );
}

function ReviewImportForm({ onClose, onImported }: { onClose(): void; onImported(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<ReviewImportAnswer | null>(null);
  const [problem, setProblem] = useState<{ message: string; lines: [string, string[]][] } | null>(null);
  const cancel = useGuardedClose(file !== null, onClose);
  const choose = (next: File | null) => {
    setFile(next);
    setChecked(null);
    setProblem(null);
  };

  async function send(dryRun: boolean) {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const csv = await file.text();
      const { data } = await api.post<{ data: ReviewImportAnswer }>(IMPORT_PATH, { csv, dry_run: dryRun });
      if (dryRun) {
        setChecked(data);
        return;
      }
      onClose();
      notifications.show({ color: 'green', message: `Imported reviews: ${countsLine(data.counts)}` });
      onImported();
    } catch (e) {
      if (e instanceof ApiError) setProblem({ message: e.message, lines: Object.entries(e.fieldErrors) });
      else setProblem({ message: String(e), lines: [] });
    } finally {
      setBusy(false);
    }
  }

  const writable = checked ? checked.counts.created + checked.counts.updated : 0;
  return (
    <Stack gap="sm">
      <Text size="sm">
        The first line names the columns, from: <Code>{REVIEW_CSV_COLUMNS.join(', ')}</Code>. <b>location</b> is a location’s ID, name or
        external code; <b>rating</b> is 1–5 (Facebook: <b>recommend</b> yes or no instead); times carry their zone, e.g.{' '}
        <Code>2026-05-01T14:30:00Z</Code>. A review already imported (same site and review ID) is updated.
      </Text>
      <Group>
        <Button variant="subtle" size="compact-sm" onClick={downloadTemplate}>
          Download template
        </Button>
      </Group>
      <FileInput label="CSV file" accept=".csv,text/csv" value={file} onChange={choose} clearable placeholder="Choose a file" />
      {problem && (
        <Alert color="red" variant="light" role="alert" title={problem.message}>
          <List size="sm">
            {problem.lines.map(([field, messages]) => (
              <List.Item key={field}>{messages.join('; ')}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {checked && <DryRunResult answer={checked} />}
      <Group justify="flex-end">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button variant="light" onClick={() => void send(true)} disabled={!file} loading={busy && !checked}>
          Check file
        </Button>
        <Button onClick={() => void send(false)} disabled={!checked || writable === 0} loading={busy && checked !== null}>
          Import
        </Button>
      </Group>
    </Stack>
  );
}

/** The dry run's answer: the counts, then each line with its outcome and messages (cards at every width). */
function DryRunResult({ answer }: { answer: ReviewImportAnswer }) {
  return (
    <Stack gap="xs" aria-label="Dry run result">
      <Text size="sm" fw={600} role="status">
        Dry run: {countsLine(answer.counts)}. Nothing is written until you press Import; refused lines are skipped.
      </Text>
      <ScrollArea.Autosize mah={280}>
        <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {answer.lines.map((l) => (
            <Paper key={l.line} withBorder p={6} component="li">
              <Group gap="xs" wrap="wrap">
                <Text size="sm">Line {l.line}</Text>
                <Text size="sm" c="dimmed">
                  {l.externalId ?? '—'}
                </Text>
                <Badge color={OUTCOME_COLOR[l.outcome]} variant="light">
                  {REVIEW_OUTCOME_LABELS[l.outcome]}
                </Badge>
              </Group>
              {Object.values(l.errors).flat().length > 0 && (
                <Text size="sm" c="red.8">
                  {Object.values(l.errors).flat().join('; ')}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
