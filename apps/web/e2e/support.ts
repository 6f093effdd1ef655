import type { Client, User } from '@admin/shared';
import { STORAGE_KEYS } from '@admin/shared/constants';
import { expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'demo-password';

/** Signs in through the login form as a person would. */
export async function signIn(page: Page, email = 'admin@example.com', password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs the admin in through the login form and waits for the page it lands on, Client Manager. */
export async function signInAsAdminWithForm(page: Page): Promise<void> {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Client Manager' })).toBeVisible();
}

/**
 * A suffix of this attempt's own for what a test creates. CI retries a failed test once on the same
 * server and database (decision 092), where its first attempt's rows are still there: a fixed name
 * would meet them (a name or code taken, two rows where one is looked for). Call it once per test
 * and reuse it. Lower-case letters and digits only (the time in base 36), so it suits a code
 * (alpha_dash) and reads as itself inside a RegExp.
 */
export function uniqueSuffix(): string {
  return Date.now().toString(36);
}

/** The demo's first client, the admin's current one after the seed: each test starts there. */
export const START_CLIENT = 'Summit Heating & Air';

/**
 * Signs the admin in through the API and opens `path` signed in: for every test that is not about
 * signing in (those use the form). It leaves the tab as the form's sign-in does
 * (apps/web/src/lib/session-store.ts, completeSignIn): a new session, the `ssoToken` cookie (set on
 * the browser context, whose cookies `page.request` shares), and in session storage the token, the
 * signed-in flag, the user and their current client. Storage is written before the console's
 * scripts run, by an init script removed once the page has loaded, so a later sign-out or reload
 * meets the console's own storage. Opened at `/`, it waits for Client Manager as the form's
 * sign-in did; elsewhere the caller waits for what its page shows.
 */
export async function signInAsAdmin(page: Page, path = '/'): Promise<void> {
  const login = await page.request.post('/api/login', { data: { email: 'admin@example.com', password: PASSWORD } });
  expect(login.status(), `POST /api/login: ${await login.text()}`).toBe(200);
  const { data: signedIn } = (await login.json()) as { data: { token: string } };
  const headers = { authorization: `Bearer ${signedIn.token}` };
  const me = await page.request.get('/api/user', { headers });
  expect(me.status(), `GET /api/user: ${await me.text()}`).toBe(200);
  let { user } = ((await me.json()) as { data: { user: User } }).data;
  // Each test starts where the demo starts, whatever an earlier file on this server left: the
  // pipeline's clock at the real time (a test that timed out never ran its own `finally`), and the
  // demo's first client as the current one (the switcher's choice is kept on the server). Which
  // files share a server, and in what order, changes with the number of workers (decision 092).
  const clock = await page.request.delete('/api/test-clock', { headers });
  expect(clock.status(), `DELETE /api/test-clock: ${await clock.text()}`).toBe(200);
  const found = await page.request.get(`/api/create-client?q=${encodeURIComponent(START_CLIENT)}&perPage=100`, { headers });
  expect(found.status(), `GET /api/create-client: ${await found.text()}`).toBe(200);
  const start = ((await found.json()) as { data: Client[] }).data.find((c) => c.name === START_CLIENT);
  if (!start) throw new Error(`the demo's client ${START_CLIENT} is not listed`);
  if (user.current_client_id !== start.id) {
    const switched = await page.request.put(`/api/users/switch-client/${start.id}`, { headers });
    expect(switched.status(), `PUT /api/users/switch-client: ${await switched.text()}`).toBe(200);
    user = ((await switched.json()) as { data: User }).data;
  }
  let client: Client | null = null;
  if (user.current_client_id !== null) {
    const res = await page.request.get(`/api/clients/${user.current_client_id}`, { headers });
    expect(res.status(), `GET /api/clients/${user.current_client_id}: ${await res.text()}`).toBe(200);
    client = ((await res.json()) as { data: Client }).data;
  }
  const entries: [string, string][] = [
    [STORAGE_KEYS.token, JSON.stringify(signedIn.token)],
    [STORAGE_KEYS.authenticated, 'true'],
    [STORAGE_KEYS.user, JSON.stringify(user)],
  ];
  if (client) entries.push([STORAGE_KEYS.currentClient, JSON.stringify(client)]);
  const seed = await page.addInitScript((items) => {
    // Only the console's own document: a sandboxed frame (rendered messages) may not touch storage.
    if (window !== window.top) return;
    for (const [key, value] of items) window.sessionStorage.setItem(key, value);
  }, entries);
  try {
    await page.goto(path);
  } finally {
    await seed.dispose();
  }
  if (path === '/') await expect(page.getByRole('heading', { level: 1, name: 'Client Manager' })).toBeVisible();
}

/**
 * Fails the test on any error printed by the page (besides ones a test expects). The browser's
 * refusal to run the test runner's own script inside a sandboxed frame (rendered messages) is the
 * sandbox at work, not a fault, so it is left out.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith("Blocked script execution in 'about:srcdoc'")) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Changes the current client with the switcher in the navigation bar. */
export async function switchClient(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Current client' }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Current client' })).toHaveValue(name);
}

/**
 * The API as the signed-in page calls it (its session token), for a test's setup and for what no
 * screen does (moving the server's clock). Each call expects the status a success answers.
 */
export async function apiOf(page: Page) {
  const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
  const headers = { authorization: `Bearer ${token}` };
  const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown, status = 200): Promise<T> => {
    const res = await page.request.fetch(url, { method, headers, data });
    expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  };
  return {
    get: <T>(url: string) => call<T>('GET', url),
    /** A POST that creates answers 201; an action (revoke, regenerate…) answers 200. */
    post: <T>(url: string, data: unknown, status = 201) => call<T>('POST', url, data, status),
    put: <T>(url: string, data: unknown) => call<T>('PUT', url, data),
    delete: <T>(url: string) => call<T>('DELETE', url),
  };
}

/**
 * Runs the server's workers to the end of their due work at the pipeline's current time, as
 * `PUT /api/test-clock` does before it answers (docs/decisions/030-test-clock.md): what a test
 * would otherwise sleep for ("however long the workers run"), done and over when this returns.
 * The clock stays where it is (a moved clock keeps its offset); a test puts it back in a `finally`.
 */
export async function runWorkersNow(api: Awaited<ReturnType<typeof apiOf>>): Promise<void> {
  const clock = await api.get<{ data: { now: string } }>('/api/test-clock');
  await api.put('/api/test-clock', { now: clock.data.now });
}

/** A phone's and a desktop's width: each user report is replayed at both, as the user met it. */
export const PHONE = 390;
export const DESKTOP = 1440;
export const WIDTHS = [PHONE, DESKTOP] as const;

/**
 * Below the small breakpoint a list shows Search and a "Filters" button in place of its other
 * filters: opens them when that button is there and closed. Call it once the list has loaded.
 */
export async function showFilters(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Filters( \(\d+\))?$/ });
  if ((await toggle.count()) === 0 || !(await toggle.isVisible())) return;
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/**
 * A list's rows as the screen shows them: the table's body rows from 640 px up, its cards below
 * (docs/decisions/040). `name` is the table's caption, which names the cards' list too.
 */
export function listRows(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name, exact: true })
    .locator('tbody tr')
    .or(page.getByRole('list', { name, exact: true }).getByRole('listitem'));
}

/**
 * The list's rows once its first answer is in (the table, or the cards' frame, which stays when no
 * card shows, stops being busy): a count read then is the server's, not the loading state's, so
 * "no such row" is a finding and not a race.
 */
export async function loadedRows(page: Page, name: string): Promise<Locator> {
  const list = page.getByRole('table', { name, exact: true }).or(page.locator(`.list-cards-frame[data-list="${name}"]`));
  await expect(list).toHaveAttribute('aria-busy', 'false');
  return listRows(page, name);
}

/**
 * Clicks one of a row's actions (a button named `action`) at any width: on a phone, a card shows
 * its actions once its Actions button is opened.
 */
export async function rowAction(row: Locator, action: string | RegExp): Promise<void> {
  await openRowActions(row);
  // The last: a row's name may open it too ("Edit …" in older builds), before its actions.
  await row.getByRole('button', { name: action }).last().click();
}

/** Shows a row's actions: nothing to do in a table; a card's Actions button opened. */
export async function openRowActions(row: Locator): Promise<void> {
  await expect(row.first()).toBeVisible();
  const toggle = row.getByRole('button', { name: /^Actions( for |$)/ });
  if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
}

/** The texts of one column of a list, found by its label: a table's column, or that fact (or status badge) of every card. */
export async function columnTexts(page: Page, name: string, label: string): Promise<string[]> {
  const table = page.getByRole('table', { name, exact: true });
  if ((await table.count()) > 0) {
    const headers = (await table.getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
    const index = headers.indexOf(label);
    expect(index, `column ${label}`).toBeGreaterThanOrEqual(0);
    return table.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts();
  }
  const rows = listRows(page, name);
  const facts = await rows.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`).allInnerTexts();
  if (facts.length > 0) return facts;
  // The status is the card's badge, after its hidden "Status: " label.
  const badges = await rows.locator(`[data-card-status="${label}"]`).allInnerTexts();
  return badges.map((t) => t.replace(`${label}:`, '').trim());
}

/** Shows or hides one of a list's columns from its Columns chooser, as a person would. */
export async function setColumn(page: Page, label: string, shown: boolean): Promise<void> {
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('group', { name: 'Choose columns' }).getByRole('checkbox', { name: label }).setChecked(shown);
  await page.keyboard.press('Escape');
}

/**
 * Archives the row named `name` in `table` through its Archive button and the confirmation, and
 * waits until the row has left the list.
 */
export async function archiveRow(page: Page, table: Locator, name: string): Promise<void> {
  await table.getByRole('button', { name: `Archive ${name}` }).click();
  await page
    .getByRole('dialog', { name: `Archive ${name}?` })
    .getByRole('button', { name: 'Archive' })
    .click();
  await expect(table.getByRole('row', { name })).toHaveCount(0);
}
