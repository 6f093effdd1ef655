import { expect, type Locator, type Page } from '@playwright/test';

// What the user-reports specs (user-reports*.spec.ts) measure a page with.

/** The laptop width a new user reported from, between the tablet and the desktop. */
export const LAPTOP = 1024;

export async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'element is laid out').not.toBeNull();
  return b ?? { x: 0, y: 0, width: 0, height: 0 };
}

export function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The page itself never scrolls sideways (wide tables scroll inside their own box). */
export async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}
