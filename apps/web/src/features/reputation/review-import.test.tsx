import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReviewImportButton } from './review-import.tsx';

/**
 * The Import reviews dialog (issue 21, item 1) on its own, the server answered by a stub of
 * `fetch`: Check file sends the file as a dry run and lists each line's outcome and messages;
 * Import sends it for real and reports the counts. (The browser test, apps/web/e2e/reviews-import.spec.ts,
 * runs it on the Reputation Panel.)
 */
const answer = (dryRun: boolean) => ({
  data: {
    dryRun,
    counts: { created: 1, updated: 0, unchanged: 0, refused: 1 },
    lines: [
      { line: 2, externalId: 'ok-1', outcome: 'created', errors: {} },
      {
        line: 3,
        externalId: 'bad-1',
        outcome: 'refused',
        errors: { rating: ['The Star rating field must be a whole number from 1 to 5 (ONE…FIVE)'] },
      },
    ],
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('ReviewImportButton', () => {
  it('checks the file first (a dry run listing each line), then imports it', async () => {
    const bodies: { csv: string; dry_run: boolean }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { csv: string; dry_run: boolean };
        bodies.push(body);
        return new Response(JSON.stringify(answer(body.dry_run)), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const imported = vi.fn();
    render(
      <MantineProvider>
        <ReviewImportButton onImported={imported} />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Import reviews' }));
    const dialog = await screen.findByRole('dialog');
    const importButton = within(dialog).getByRole('button', { name: 'Import' });
    expect((importButton as HTMLButtonElement).disabled).toBe(true);
    const csv = 'review_id,location,rating,created\nok-1,a,5,2026-01-01T00:00:00Z\nbad-1,a,6,2026-01-01T00:00:00Z\n';
    const input = dialog.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([csv], 'reviews.csv', { type: 'text/csv' })] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check file' }));
    expect(await within(dialog).findByText(/Dry run: 1 new, 0 updated, 0 unchanged, 1 refused/)).toBeTruthy();
    expect(within(dialog).getByText('The Star rating field must be a whole number from 1 to 5 (ONE…FIVE)')).toBeTruthy();
    expect(within(dialog).getByText('Refused')).toBeTruthy();
    expect(bodies).toEqual([{ csv, dry_run: true }]);

    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(imported).toHaveBeenCalledOnce());
    expect(bodies.at(-1)).toEqual({ csv, dry_run: false });
  });
});
