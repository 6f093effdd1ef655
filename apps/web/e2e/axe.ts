import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The rules every axe check of the browser tests applies (decision 042). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * The page's serious and critical axe violations, each with the elements that break it (at most
 * five, by CSS path) and why, so a failure names what to mend. Legacy mode: one page per check,
 * the screens have no frame whose results need merging.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} — ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`)
          .join('; ')}`,
    );
}
