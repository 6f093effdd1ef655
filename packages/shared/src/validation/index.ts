import { messageFor } from './messages.ts';
import { type RuleResult, rules } from './rules.ts';

export { parseDate } from './dates.ts';
export { formatFileSize, messageFor } from './messages.ts';

/** The 36 rule names of vee-validate 2 (decision 007). */
export const ruleNames: readonly string[] = Object.freeze(Object.keys(rules).sort());

/** Positional names of each rule's params; others take the plain array. */
const PARAM_NAMES: Record<string, readonly string[]> = {
  after: ['targetValue', 'inclusion', 'format'],
  before: ['targetValue', 'inclusion', 'format'],
  between: ['min', 'max'],
  confirmed: ['targetValue'],
  date_between: ['min', 'max', 'inclusivity', 'format'],
  date_format: ['format'],
  decimal: ['decimals', 'separator'],
  ip: ['version'],
  regex: ['expression'],
  alpha: ['locale'],
  alpha_dash: ['locale'],
  alpha_num: ['locale'],
  alpha_spaces: ['locale'],
};
const OPTION_RULES = new Set(['email', 'url']);
const TARGET_RULES = new Set(['after', 'before', 'confirmed', 'required_if']);
const DATE_RULES = new Set(['after', 'before', 'date_between']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** Turns any accepted params form into the positional array (and options for email/url). */
function normalise(name: string, params: unknown): { positional: unknown[]; options?: Record<string, unknown> } {
  if (OPTION_RULES.has(name)) {
    return { positional: Array.isArray(params) ? params : [], ...(isPlainObject(params) ? { options: params } : {}) };
  }
  if (params === undefined || params === true) return { positional: [] };
  if (Array.isArray(params)) return { positional: params };
  const names = PARAM_NAMES[name];
  if (isPlainObject(params) && names?.some((n) => n in params)) {
    const positional = names.map((n) => params[n]);
    while (positional.length > 0 && positional[positional.length - 1] === undefined) positional.pop();
    return { positional };
  }
  return { positional: [params] };
}

function ruleOf(name: string) {
  const rule = rules[name];
  if (!rule) throw new Error(`Unknown validation rule "${name}". Known rules: ${ruleNames.join(', ')}`);
  return rule;
}

function asBoolean(result: Exclude<RuleResult, Promise<boolean>>): boolean {
  return typeof result === 'boolean' ? result : result.valid;
}

/**
 * One rule alone, without the empty-value skip. `params` is the positional array `name:a,b`
 * produces, typed values, or an options object for email and url; date rules take the date
 * format last; confirmed and required_if take the target field's value first.
 * @example validateRule('between', '2', ['1', '3']) // true
 */
export function validateRule(name: string, value: unknown, params: unknown): boolean | Promise<boolean> {
  const { positional, options } = normalise(name, params);
  const result = ruleOf(name)(value, positional, options);
  return result instanceof Promise ? result : asBoolean(result);
}

type ParsedRule = { name: string; params: unknown };

/** `'required|between:1,3'` or `{ required: true, between: [1, 3] }` → ordered rules. */
export function parseRules(rules: string | Record<string, unknown>): ParsedRule[] {
  if (typeof rules === 'string') {
    return rules
      .split('|')
      .filter((r) => r.trim() !== '')
      .map((r) => {
        const i = r.indexOf(':');
        return i < 0 ? { name: r.trim(), params: [] } : { name: r.slice(0, i).trim(), params: r.slice(i + 1).split(',') };
      });
  }
  return Object.entries(rules)
    .filter(([, p]) => p !== false)
    .map(([name, p]) => ({ name, params: p }));
}

export type ValidateOptions = { name?: string; values?: Record<string, unknown>; bails?: boolean };
export type ValidationResult = { valid: boolean; errors: string[]; failedRules: Record<string, string> };

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The whole vee-validate 2 pipeline: required_if first, the empty-value skip for
 * fields that are not required, target and date-format substitution, fast exit unless
 * `bails: false`, and the en messages.
 * @example await validate('', 'required|between:1,3', { name: 'age' })
 * // { valid: false, errors: ['The age field is required'], failedRules: { required: 'The age field is required' } }
 */
export async function validate(
  value: unknown,
  ruleSet: string | Record<string, unknown>,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  const field = options.name ?? '{field}';
  const values = options.values ?? {};
  const bails = options.bails !== false;
  const parsed = parseRules(ruleSet).map((r) => ({ ...r, ...normalise(r.name, r.params) }));
  for (const r of parsed) ruleOf(r.name);
  const dateFormat = parsed.find((r) => r.name === 'date_format')?.positional[0] ?? null;

  /** Params as the rule sees them: the target's value first, the date format last. */
  function runtimeParams(r: (typeof parsed)[number]): unknown[] {
    let ps = [...r.positional];
    if (TARGET_RULES.has(r.name) && ps.length > 0) {
      const target = String(ps[0]);
      if (Object.hasOwn(values, target)) ps[0] = values[target];
    }
    if (DATE_RULES.has(r.name)) ps = [...ps, dateFormat];
    return ps;
  }

  const errors: string[] = [];
  const failedRules: Record<string, string> = {};
  const fail = (r: (typeof parsed)[number]) => {
    const message = messageFor(r.name, field, r.positional);
    errors.push(message);
    failedRules[r.name] ??= message;
  };

  // required_if runs first and may make the field required.
  let required = parsed.some((r) => r.name === 'required');
  const requiredIf = parsed.find((r) => r.name === 'required_if');
  let requiredIfValid = true;
  if (requiredIf) {
    const result = ruleOf('required_if')(value, runtimeParams(requiredIf));
    if (typeof result === 'object' && !(result instanceof Promise)) {
      required ||= result.data.required;
      requiredIfValid = result.valid;
    }
  }
  if (!required && bails && isEmpty(value)) return { valid: true, errors: [], failedRules: {} };
  if (requiredIf && !requiredIfValid) {
    fail(requiredIf);
    if (bails) return { valid: false, errors, failedRules };
  }

  for (const r of parsed) {
    if (r.name === 'required_if') continue;
    const result = ruleOf(r.name)(value, runtimeParams(r), r.options);
    const ok = result instanceof Promise ? await result : asBoolean(result);
    if (!ok) {
      fail(r);
      if (bails) break;
    }
  }
  return { valid: errors.length === 0, errors, failedRules };
}

/** How a field is named in messages: `postal_code` → "postal code" (both sides use this). */
export function displayName(field: string): string {
  return field.replace(/_/g, ' ');
}
