import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
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
 * Where the first byte that is not UTF-8 lies in `bytes`, or null when they are all UTF-8 (an
 * encoded U+FFFD included). Decoding with replacement and encoding again changes the bytes exactly
 * where a sequence was invalid, so the first difference is the offset; both steps run natively.
 */
export function firstInvalidUtf8(bytes: Buffer): number | null {
  if (isUtf8(bytes)) return null;
  const again = Buffer.from(bytes.toString('utf8'), 'utf8');
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i;
}

/**
 * Fastify's JSON parser decodes the body's bytes with replacement, so a byte that is not UTF-8
 * would reach the guard (and the database) as U+FFFD. This one reads the bytes, refuses them with
 * 400 unless they are UTF-8 (JSON text is, RFC 8259), then hands the text to Fastify's own parser,
 * which keeps its protections against `__proto__` and `constructor` keys; the body limits (the
 * server's and each route's `bodyLimit`) apply to the bytes as before.
 */
function registerJsonParser(app: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const at = firstInvalidUtf8(body);
    if (at !== null) {
      const message = `The body must be UTF-8 text: byte ${at + 1} is not.`;
      done(new HttpError(400, `Invalid body: not UTF-8 (byte ${at + 1}).`, { body: [message] }), undefined);
      return;
    }
    // Decoded as Fastify decodes it: a leading byte-order mark stays, and its parser skips it as before.
    parseJson(request, body.toString('utf8'), done);
  });
}

/**
 * Refuses, before any schema or handler runs, the input nothing in the server may store or walk:
 * JSON bodies that are not UTF-8 (400), and NUL characters, lone surrogates, deep or huge values —
 * 400 for path and query parameters, 422 for body fields, naming each field (docs/overview.md, The API).
 * Every route gets it, including the ones added later.
 */
export const inputGuardPlugin = fp(
  async (app) => {
    registerJsonParser(app);
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
