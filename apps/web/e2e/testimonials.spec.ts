import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, openRowActions, signInAsAdmin, switchClient, WIDTHS } from './support.ts';

type T = { id: number; status: string; display_text: string; original_text: string; display_name: string; location_id: string | null };
const LIST = 'Testimonials';
const QUERY_PATH = '/api/survey-comments-testimonials';

/** Every POST of the spec's testimonial query the page makes, with its body. */
function watchQueries(page: Page): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === QUERY_PATH) bodies.push(r.postDataJSON() as Record<string, unknown>);
  });
  return bodies;
}

/** Picks options in a multi-select filter found by its label, then closes it. */
async function choose(page: Page, label: string, options: string[]) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  for (const o of options) await page.getByRole('option', { name: o, exact: true }).click();
  await page.keyboard.press('Escape');
}

async function act(page: Page, row: Locator, name: string, action: string) {
  await openRowActions(row);
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** Two testimonials of the current client made pending through the API, whatever earlier runs did to them. */
async function twoPending(page: Page): Promise<T[]> {
  const api = await apiOf(page);
  const all = (await api.post<{ data: T[] }>(QUERY_PATH, { startDate: '2000-01-01', endDate: '2100-01-01' }, 200)).data;
  const picked = all.slice(0, 2);
  for (const t of picked) {
    if (t.status === 'published') await api.post(`/api/testimonials/${t.id}/unpublish`, {}, 200);
    if (t.status !== 'pending' && t.status !== 'rejected') await api.post(`/api/testimonials/${t.id}/reject`, {}, 200);
    if (t.status !== 'pending') await api.post(`/api/testimonials/${t.id}/restore`, {}, 200);
  }
  return picked;
}

for (const width of WIDTHS) {
  test(`Testimonials Tool at ${width} px: the query's rule, approve → publish, edit display text, bulk approve, and the widget on another site`, async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    // The demo's first client has testimonials in every state; an earlier spec may have switched away from it.
    await switchClient(page, 'Summit Heating & Air');
    const [first, second] = await twoPending(page);
    if (!first || !second) throw new Error('the demo has fewer than two testimonials for the first client');
    const bodies = watchQueries(page);
    const options = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/surveys');
    await page.goto('/admin/testimonials-tool');
    await options;
    await expect(page.getByText('Choose a location, a survey or a date range to see testimonials.')).toBeVisible();
    // Nothing chosen: the query does not run.
    expect(bodies).toHaveLength(0);

    // Selected All surveys: the query runs with the surveys only, no empty location or dates.
    await choose(page, 'Survey', ['Selected All']);
    await expect.poll(() => bodies.length).toBe(1);
    expect(Object.keys(bodies[0] ?? {})).toEqual(['survey']);
    expect(bodies[0]?.survey).toEqual(expect.arrayContaining([expect.any(Number)]));
    const firstRow = listRows(page, LIST).filter({ hasText: first.display_text.slice(0, 40) });
    await expect(firstRow).toHaveCount(1);
    // The filled list passes axe as the sweep of every screen does (apps/web/e2e/accessibility.spec.ts, decision 042).
    expect(await seriousViolations(page)).toEqual([]);

    // Surveys cleared, one location chosen: the query's body has the location alone.
    await page.getByRole('combobox', { name: 'Survey', exact: true }).click();
    await page.getByRole('option', { name: 'Selected All', exact: true }).click();
    await page.keyboard.press('Escape');
    const locations = (
      await apiOf(page).then((a) => a.get<{ data: { _id: string; locationname: string }[] }>('/api/endpoints?perPage=100'))
    ).data;
    const location = locations.find((l) => l._id === first.location_id);
    if (location) {
      await choose(page, 'Location', [location.locationname]);
      await expect.poll(() => bodies.some((b) => JSON.stringify(b) === JSON.stringify({ location: [location._id] }))).toBe(true);
      await expect(firstRow).toHaveCount(1);
      // Chosen again, the location is dropped: back to no filter.
      await choose(page, 'Location', [location.locationname]);
    }
    // Every later query left empty values out.
    for (const b of bodies) for (const v of Object.values(b)) expect(Array.isArray(v) ? v.length : String(v).length).toBeGreaterThan(0);
    await choose(page, 'Survey', ['Selected All']);

    // Approve, then publish, from the row's menu.
    await act(page, firstRow, first.display_name, 'Approve');
    await expect(firstRow).toContainText('Approved');
    await act(page, firstRow, first.display_name, 'Publish');
    await expect(firstRow).toContainText('Published');

    // Edit the display text: the original is kept and shown on focus.
    const edited = `Edited at ${width}px: quick, friendly and spotless work.`;
    await act(page, firstRow, first.display_name, 'Edit display text');
    const dialog = page.getByRole('dialog', { name: 'Edit display text' });
    await dialog.getByRole('textbox', { name: 'Display text' }).fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('The Display text field is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Display text' }).fill(edited);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    const editedRow = listRows(page, LIST).filter({ hasText: edited });
    await expect(editedRow).toHaveCount(1);
    // On hover (and on keyboard focus), and in the comment's accessible name for screen readers.
    await editedRow.getByText(edited).hover();
    await expect(page.getByRole('tooltip')).toContainText(`Original: ${first.original_text}`);
    await expect(editedRow.getByText(edited)).toHaveAccessibleName(`${edited} (edited; original: ${first.original_text})`);

    // Bulk approve, confirmed with its count.
    await expect(listRows(page, LIST).filter({ hasText: second.display_text.slice(0, 40) })).toContainText('Pending');
    const pendingCount = await listRows(page, LIST).filter({ hasText: 'Pending' }).count();
    expect(pendingCount).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Bulk approve' }).click();
    const confirm = page.getByRole('dialog', { name: 'Bulk approve' });
    await expect(confirm).toContainText(`Approve ${pendingCount} pending testimonial(s) shown?`);
    await confirm.getByRole('button', { name: `Approve ${pendingCount}` }).click();
    await expect(page.getByText(`${pendingCount} testimonial(s) approved.`)).toBeVisible();
    await expect(listRows(page, LIST).filter({ hasText: 'Pending' })).toHaveCount(0);
    await expect(listRows(page, LIST).filter({ hasText: second.display_text.slice(0, 40) })).toContainText('Approved');

    // The widget on a plain page of another origin shows the testimonial just published.
    const origin = new URL(page.url()).origin;
    const clientId = (await apiOf(page).then((a) => a.get<{ data: { user: { current_client_id: number } } }>('/api/user'))).data.user
      .current_client_id;
    const site: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="en"><head><title>Plumbing Co.</title></head><body><h1>Our customers</h1><script src="${origin}/w/testimonials.js" async></script><selected-testimonials client="${clientId}"></selected-testimonials><iframe src="${origin}/w/testimonials/${clientId}" title="Testimonials in a frame"></iframe></body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const port = (site.address() as AddressInfo).port;
      await page.goto(`http://127.0.0.1:${port}/`);
      const widget = page.getByRole('region', { name: 'Selected testimonials' });
      await expect(widget).toBeVisible();
      await expect(widget.getByText(edited)).toBeVisible();
      await expect(widget.getByText(first.display_name, { exact: true }).first()).toBeVisible();
      // The iframe page too: framed by another site, its script and feed allowed by its own policy.
      const framed = page.frameLocator('iframe[title="Testimonials in a frame"]').getByRole('region', { name: 'Selected testimonials' });
      await expect(framed.getByText(edited)).toBeVisible();
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
    expect(errors).toEqual([]);
  });
}
