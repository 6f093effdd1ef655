import { expect } from 'vitest';
import { validateRule } from './index.ts';

// What the rule tests (validation-rules.test.ts, validation-strings.test.ts) check each value with.

export const ok = (name: string, value: unknown, params: unknown = []) =>
  expect(validateRule(name, value, params), `${name} ${JSON.stringify(value)}`).toBe(true);
export const bad = (name: string, value: unknown, params: unknown = []) =>
  expect(validateRule(name, value, params), `${name} ${JSON.stringify(value)}`).toBe(false);
export const file = (name: string, type = '', size = 0, extra: Record<string, unknown> = {}) => ({ name, type, size, ...extra });
