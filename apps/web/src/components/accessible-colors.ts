import { type CSSVariablesResolver, darken, luminance, type MantineColorsTuple } from '@mantine/core';

/** WCAG AA for normal text (a badge's 11 px label is normal text). */
const AA = 4.5;
/** A striped table row's background (Mantine's gray.0); white is lighter, so a colour that reads on it reads on white too. */
const STRIPE = '#f8f9fa';

const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return ((x ?? 0) + 0.05) / ((y ?? 0) + 0.05);
};

/**
 * The lightest shade from 6 on that white text reads on, and that reads as text on a striped row:
 * blue 8, red 9, gray 7, teal 9, violet 6. Colours whose every shade is too light (green, lime,
 * yellow, orange) get their darkest shade darkened until it does.
 */
function readableShade(shades: MantineColorsTuple): string {
  for (const shade of shades.slice(6)) if (contrast(shade, STRIPE) >= AA) return shade;
  let dark = shades[9];
  for (let amount = 0.1; contrast(dark, STRIPE) < AA && amount <= 0.5; amount += 0.1) dark = darken(shades[9], amount);
  return dark;
}

/**
 * Mantine's default light colours put text below WCAG AA contrast on every screen (axe-core's
 * color-contrast in apps/web/e2e/accessibility.spec.ts): dimmed text and placeholders (gray 6
 * and 5 on white, 3.3:1 and 2.1:1), white on a filled button (blue 6, 3.6:1), a light badge's
 * label (green 9 on green 1, 3.8:1), an outline badge (gray 6, 3.3:1) and an error message (red 6,
 * 3.3:1). This keeps Mantine's palette and moves each of those to a shade that reads (decision 042).
 */
export const accessibleColors: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Darker than a hint, lighter than a value: 4.9:1 on white.
    '--mantine-color-placeholder': darken(theme.colors.gray[6], 0.2),
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': `var(--mantine-color-${theme.primaryColor}-filled)`,
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    const filled = readableShade(shades);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    light[`--mantine-color-${name}-outline`] = filled;
    light[`--mantine-color-${name}-light-color`] = darken(shades[9], 0.35);
  }
  return { variables: {}, light, dark: {} };
};
