import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'demo-password';

/** Signs in through the login form as a person would. */
export async function signIn(page: Page, email = 'admin@example.com', password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signInAsAdmin(page: Page): Promise<void> {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Client Manager' })).toBeVisible();
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
