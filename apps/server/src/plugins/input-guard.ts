import fp from 'fastify-plugin';
import { fieldLabel, fieldsRefused, HttpError } from '../lib/http-error.ts';
import { badText, LONE_SURROGATE } from '../lib/safe-text.ts';
import { fieldErrors } from './errors.ts';

/** Deepest nesting any request may carry; the deepest real body (location hours) is 4 levels. */
export const MAX_DEPTH = 32;
/** Most elements one array may hold; the biggest real list (a filter's values) is 200. */
export const MAX_ARRAY = 5_000;
/** Most keys one object may hold. */
export const MAX_KEYS = 1_000;

type Problem = { field: string; message: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Body field → the label its form shows, so the guard, which runs before the handler, names
     * refused fields as the form does; the kit's routes carry their definition's (kit/resource-routes.ts).
     */
    labels?: Readonly<Record<string, string>>;
  }
}

/**
 * Walks a parsed request part without recursion (a 10,000-deep body must not overflow the stack)
 * and returns the first problems found: NUL characters and lone surrogates in keys or strings,
 * nesting deeper than MAX_DEPTH, arrays or objects larger than their bound.
 */
export function inputProblems(value: unknown, maxProblems = 10): Problem[] {
  const problems: Problem[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0 && problems.length < maxProblems) {
    const item = stack.pop();
    if (!item) break;
    const { value: v, path, depth } = item;
    const field = path || 'value';
    if (typeof v === 'string') {
      const bad = badText(v);
      if (bad) problems.push({ field, message: bad });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      // Named by its top-level field: the full path would be MAX_DEPTH segments long.
      problems.push({ field: field.split('.')[0] ?? field, message: `is nested too deeply (at most ${MAX_DEPTH} levels)` });
      continue;
    }
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY) {
        problems.push({ field, message: `may not have more than ${MAX_ARRAY} items` });
        continue;
      }
      v.forEach((element, i) => {
        stack.push({ value: element, path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
      });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > MAX_KEYS) {
      problems.push({ field, message: `may not have more than ${MAX_KEYS} fields` });
      continue;
    }
    for (const key of keys) {
      const child = path ? `${path}.${key}` : key;
      const badKey = badText(key);
      if (badKey) {
        problems.push({ field: printable(child), message: `has a field name that ${badKey}` });
        continue;
      }
      stack.push({ value: (v as Record<string, unknown>)[key], path: child, depth: depth + 1 });
    }
  }
  return problems;
}

/** A field path safe to echo back: NULs and lone surrogates replaced by U+FFFD. */
function printable(path: string): string {
  return path.replaceAll('\u0000', '\ufffd').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
}

/**
 * Refuses, before any schema or handler runs, the input nothing in the server may store or walk:
 * 400 for path and query parameters, 422 for body fields, naming each field (docs/overview.md, The API).
 * Every route gets it, including the ones added later.
 */
export const inputGuardPlugin = fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      for (const [part, value, status] of [
        ['params', request.params, 400],
        ['query', request.query, 400],
        ['body', request.body, 422],
      ] as const) {
        const problems = inputProblems(value);
        if (problems.length === 0) continue;
        // Body fields are named by the route's labels, as the form shows them; parameters by their keys.
        const labels = part === 'body' ? (request.routeOptions.config?.labels ?? {}) : {};
        const errors = new Map<string, string[]>();
        for (const { field, message } of problems) {
          errors.set(field, [...(errors.get(field) ?? []), `The ${fieldLabel(field, labels)} field ${message}.`]);
        }
        if (status === 422) throw fieldsRefused(fieldErrors(errors), labels);
        const names = [...errors.keys()].join(', ');
        throw new HttpError(status, `Invalid ${part === 'params' ? 'path' : 'query'}: ${names}.`, fieldErrors(errors));
      }
    });
  },
  { name: 'input-guard', dependencies: ['errors'] },
);
