import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The rules every axe check of the browser tests applies (decision 042). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * The page's serious and critical axe violations. Legacy mode: axe runs inside the page, since
 * the screens have no frame whose results need merging (decision 042).
 */
export async function seriousResults(page: Page): Promise<Violation[]> {
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Each serious violation with the elements that break it (at most five, with their HTML), so a failure names what to mend. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await seriousResults(page)).map(
    (v) =>
      `${v.id}: ${v.help} — ${v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`)
        .join('; ')}`,
  );
}
