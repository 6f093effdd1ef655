import type { Locator, Page } from '@playwright/test';
import { SCREEN_ROUTES } from '../src/app/routes.ts';
import { seriousResults } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, signInAsAdmin, WIDTHS } from './support.ts';

/**
 * axe-core on every built screen at a phone's and a desktop's width (issue 19, item 19): no
 * serious or critical violation, the rules of WCAG 2.1 A and AA and axe's best practices. The
 * sign-in page, each screen of the route table that is not a "Not built yet" placeholder (with its
 * create form and a row's details open, where it has them), and the public survey page. Each screen is checked once its list has its rows, as a person meets it.
 *
 * Kept short (decision 042): one signed-in tab per width, each screen reached as the menu reaches
 * it (a client-side navigation, not a reload), and axe run inside the page (legacy mode: the
 * default opens a second page per check to merge frame results, and these pages have no frame
 * that needs it).
 */

type Found = { screen: string; rule: string; impact: string; help: string; targets: string[] };

async function audit(page: Page, screen: string): Promise<Found[]> {
  return (await seriousResults(page)).map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? '',
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  }));
}

/** Goes to a screen as its menu link does: the router's own navigation, without reloading the app. */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The screen has drawn its heading and no list is still waiting for its rows. */
async function settled(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * The dialogs a screen opens from its list: its create form (the first "Create …" or "Add …"
 * button) and the first row's details, each audited open, as a person meets them.
 */
function dialogOpeners(page: Page): [string, Locator][] {
  return [
    ['create form', page.getByRole('button', { name: /^(Create|Add) / }).first()],
    ['details', page.getByRole('button', { name: /^Details of / }).first()],
  ];
}

const report = (found: Found[]) =>
  found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join('\n    ')}`).join('\n');

for (const width of WIDTHS) {
  test(`axe at ${width} px: the sign-in page, every built screen and the public survey page have no serious or critical violation`, async ({
    page,
  }) => {
    // Every built screen, one after another (about 30, each run through axe): minutes on a two-core machine.
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height: 900 });
    const found: Found[] = [];

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    found.push(...(await audit(page, 'Login')));

    await signInAsAdmin(page);
    const checked: string[] = [];
    let dialogs = 0;
    for (const route of SCREEN_ROUTES) {
      await navigate(page, route.path);
      await settled(page, route.label);
      if (await page.getByText('This screen is not built yet.').isVisible()) continue;
      found.push(...(await audit(page, route.label)));
      checked.push(route.label);
      for (const [what, opener] of dialogOpeners(page)) {
        if (!(await opener.isVisible())) continue;
        await opener.click();
        const dialog = page.getByRole('dialog').last();
        await expect(dialog).toBeVisible();
        await expect(dialog.locator('[aria-busy="true"]')).toHaveCount(0);
        // Audited once its opening transition has ended: mid-fade, colours are blends of the page's.
        await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
        found.push(...(await audit(page, `${route.label}: ${what}`)));
        dialogs++;
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      }
    }
    // The forms and details were opened too, where the screen has them.
    expect(dialogs).toBeGreaterThanOrEqual(10);
    // A guard against a sweep that checks nothing: the screens built when this was written.
    expect(checked.length).toBeGreaterThanOrEqual(17);

    // The public survey page, through a test invitation of a demo survey.
    const api = await apiOf(page);
    const surveys = await api.get<{ data: { id: number }[] }>('/api/surveys?perPage=1');
    const survey = surveys.data[0];
    expect(survey, 'a demo survey').toBeDefined();
    const sent = await api.post<{ data: { link: string } }>(`/api/surveys/${survey?.id}/send-test`, { to: 'axe.e2e@example.com' });
    await page.goto(new URL(sent.data.link).pathname);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    found.push(...(await audit(page, 'Public survey page')));

    expect(found, report(found)).toEqual([]);
  });
}
