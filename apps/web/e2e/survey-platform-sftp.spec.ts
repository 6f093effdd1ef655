import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SftpTestServer, startSftpServer } from '../../server/test/sftp-test-server.ts';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, loadedRows, signInAsAdmin } from './support.ts';

// The SFTP pull as a staff member sets it up: a feed made on screen against an SFTP server (the
// in-process `ssh2` server of the API tests, on this machine), Run now, the dropped file ingested;
// Run now again after a second drop ingests only the new file, so each file is taken once.

test('Survey Platform: an SFTP feed made on screen pulls a dropped file once', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = collectConsoleErrors(page);
  const tag = `${Date.now().toString(36)}${test.info().retry}`;
  const dir = mkdtempSync(join(tmpdir(), 'e2e-sftp-'));
  const server: SftpTestServer = await startSftpServer(dir, { username: 'feeds', password: `pw-${tag}` });
  const drop = (name: string, first: string) => {
    const today = new Date().toISOString().slice(0, 10);
    const csv = `first_name,email,transaction_id,transaction_date\r\n${first},${first.toLowerCase()}.${tag}@example.com,${first}-${tag},${today}\r\n`;
    writeFileSync(join(dir, name), csv);
  };
  try {
    await signInAsAdmin(page, '/admin/survey-platform');
    await page.getByRole('button', { name: 'Create feed' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create feed' });
    const name = `Pulled ${tag}`;
    await drawer.getByRole('textbox', { name: 'Feed name' }).fill(name);
    await drawer.getByRole('combobox', { name: 'Source system' }).click();
    await page.getByRole('option', { name: 'SFTP', exact: true }).click();
    await drawer.getByRole('combobox', { name: 'Survey' }).click();
    await page.getByRole('option').first().click();
    await drawer.getByRole('combobox', { name: 'Fixed location' }).click();
    await page.getByRole('option').first().click();
    await drawer.getByRole('textbox', { name: 'SFTP host' }).fill('127.0.0.1');
    await drawer.getByRole('textbox', { name: 'SFTP port' }).fill(String(server.port));
    await drawer.getByRole('textbox', { name: 'SFTP path' }).fill('/');
    await drawer.getByRole('textbox', { name: 'File name pattern' }).fill(`orders_${tag}_*.csv`);
    await drawer.getByRole('textbox', { name: 'SFTP username' }).fill('feeds');
    await drawer.getByLabel('SFTP password').fill(`pw-${tag}`);
    await drawer.getByRole('button', { name: 'Create feed' }).click();
    await expect(drawer).toHaveCount(0);
    const row = page.getByRole('table', { name: 'Feeds' }).getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('SFTP');

    const runNow = async () => {
      await row.getByRole('button', { name: `More actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Run now' }).click();
    };
    // The worker pulls in the background: the feed's last file (named for this run alone) shows once
    // the run is in. Each look reloads and waits for the list's answer, however slow the machine.
    const pulled = async (file: string) =>
      expect
        .poll(
          async () => {
            await page.reload();
            await loadedRows(page, 'Feeds');
            return page.getByRole('table', { name: 'Feeds' }).innerText();
          },
          { timeout: 25_000, intervals: [250, 500, 1000] },
        )
        .toContain(file);
    drop(`orders_${tag}_1.csv`, 'Ana');
    await runNow();
    await pulled(`orders_${tag}_1.csv`);
    drop(`orders_${tag}_2.csv`, 'Bo');
    await runNow();
    await pulled(`orders_${tag}_2.csv`);

    // Survey Manager Logs: one run per file, the first file not taken again.
    await row.getByRole('button', { name: `More actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'View runs' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect(runs.getByRole('row', { name: new RegExp(`orders_${tag}_2\\.csv`) })).toHaveCount(1);
    await expect(runs.getByRole('row', { name: new RegExp(`orders_${tag}_1\\.csv`) })).toHaveCount(1);
    await expect(runs.getByRole('row', { name: new RegExp(`orders_${tag}_`) })).toHaveCount(2);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  expect(errors).toEqual([]);
});
