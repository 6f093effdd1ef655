import validator from 'validator';
import { alphaTest } from './alpha.ts';
import { parseDate } from './dates.ts';

/**
 * The 36 rules of vee-validate 2.2.15, each as the original behaves at the rule level: no
 * empty-value skipping here, that is the pipeline's job. Params arrive positional
 * (the date format last for date rules, the target's value first for target rules); email and
 * url take an options object. Differences from the original: docs/decisions/007-validation-rules.md.
 */
export type RuleResult = boolean | Promise<boolean> | { valid: boolean; data: { required: boolean } };
export type Rule = (value: unknown, params: unknown[], options?: Record<string, unknown>) => RuleResult;

type FileLike = { name?: unknown; type?: unknown; size?: unknown; width?: unknown; height?: unknown };

const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;
const every = (value: unknown[], test: (v: unknown) => boolean) => value.every(test);

/** A file or a list of files as an array (arrays, FileList-likes, or a single file). */
function filesOf(value: unknown): FileLike[] {
  if (Array.isArray(value)) return value as FileLike[];
  if (value && typeof value === 'object' && typeof (value as { length?: unknown }).length === 'number') {
    return Array.from(value as ArrayLike<FileLike>);
  }
  return [value as FileLike];
}
const fileName = (f: FileLike) => String(f?.name ?? '');
const IMAGE_NAME = /\.(jpg|svg|jpeg|png|bmp|gif)$/i;

/**
 * validator.js asserts a string and throws on numbers; we answer "invalid" instead so a number
 * sent to the server is a 422, never a 500 (decision 007).
 */
function stringOnly(value: unknown, test: (s: string) => boolean): boolean {
  const v = isNullish(value) ? '' : value;
  return typeof v === 'string' ? test(v) : false;
}

function compareDates(value: unknown, params: unknown[], cmp: (a: number, b: number) => boolean): boolean {
  const [target, inclusion, format] = params.length === 2 ? [params[0], false, params[1]] : [params[0], params[1], params[2]];
  const v = parseDate(value, format);
  const t = parseDate(target, format);
  if (!v || !t) return false;
  return cmp(v.getTime(), t.getTime()) || (Boolean(inclusion) && v.getTime() === t.getTime());
}

function included(value: unknown, list: unknown[]): boolean {
  if (Array.isArray(value)) return value.every((v) => included(v, list));
  // biome-ignore lint/suspicious/noDoubleEquals: the original compares loosely ('1' == 1)
  return list.some((item) => item == value);
}

function loadedImageMatches(file: FileLike, width: number, height: number): Promise<boolean> {
  if (typeof file.width === 'number' && typeof file.height === 'number') {
    return Promise.resolve(file.width === width && file.height === height);
  }
  type ImageLike = { width: number; height: number; onload: (() => void) | null; onerror: (() => void) | null; src: string };
  const g = globalThis as { Image?: new () => ImageLike; URL?: typeof URL };
  const ImageCtor = g.Image;
  if (!ImageCtor || !g.URL?.createObjectURL) return Promise.resolve(false);
  return new Promise((resolve) => {
    const image = new ImageCtor();
    image.onerror = () => resolve(false);
    image.onload = () => resolve(image.width === width && image.height === height);
    // Reached only in a browser, where a FileLike with no width/height is a File (a Blob); the
    // library's FileLike type also covers plain objects so that it compiles without the DOM.
    image.src = URL.createObjectURL(file as unknown as Blob);
  });
}

function emailOptions(options: unknown): { multiple: boolean; rest: validator.IsEmailOptions } {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return { multiple: false, rest: {} };
  const { multiple, ...rest } = options as Record<string, unknown>;
  return { multiple: Boolean(multiple), rest: rest as validator.IsEmailOptions };
}

export const rules: Record<string, Rule> = {
  after: (value, params) => compareDates(value, params, (a, b) => a > b),
  before: (value, params) => compareDates(value, params, (a, b) => a < b),

  alpha: (value, [locale]) => alphaTest('alpha', value, locale),
  alpha_dash: (value, [locale]) => alphaTest('alpha_dash', value, locale),
  alpha_num: (value, [locale]) => alphaTest('alpha_num', value, locale),
  alpha_spaces: (value, [locale]) => alphaTest('alpha_spaces', value, locale),

  between: (value, [min, max]) => {
    if (Array.isArray(value)) return every(value, (v) => rules.between?.(v, [min, max]) === true);
    const n = Number(value);
    return Number(min) <= n && Number(max) >= n;
  },

  confirmed: (value, [target]) => String(value) === String(target),

  credit_card: (value) => validator.isCreditCard(String(value)),

  date_between: (value, params) => {
    const [min, max, inclusivity, format] = params.length === 3 ? [params[0], params[1], '()', params[2]] : params;
    const v = parseDate(String(value), format);
    const lo = parseDate(String(min), format);
    const hi = parseDate(String(max), format);
    if (!v || !lo || !hi) return false;
    const [x, a, b] = [v.getTime(), lo.getTime(), hi.getTime()];
    switch (inclusivity) {
      case '()':
        return a < x && x < b;
      case '(]':
        return a < x && x <= b;
      case '[)':
        return a <= x && x < b;
      default:
        return a <= x && x <= b;
    }
  },

  date_format: (value, [format]) => parseDate(value, format) !== null,

  decimal: (value, [decimals = '*', separator = '.']) => {
    if (isNullish(value) || value === '') return false;
    if (Array.isArray(value)) return every(value, (v) => rules.decimal?.(v, [decimals, separator]) === true);
    const text = String(value);
    if (Number(decimals) === 0) return /^-?\d*$/.test(text);
    const places = decimals === '*' || isNullish(decimals) ? '+' : `{1,${String(decimals)}}`;
    const sep = String(separator).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!new RegExp(`^[-+]?\\d*(${sep}\\d${places})?([eE]-?\\d+)?$`).test(text)) return false;
    return !Number.isNaN(Number.parseFloat(text));
  },

  digits: (value, [length]) => {
    if (Array.isArray(value)) return every(value, (v) => rules.digits?.(v, [length]) === true);
    const text = String(value);
    return /^[0-9]*$/.test(text) && text.length === Number(length);
  },

  dimensions: (value, [width, height]) => {
    const images = filesOf(value).filter((f) => IMAGE_NAME.test(fileName(f)));
    if (images.length === 0) return false;
    return Promise.all(images.map((f) => loadedImageMatches(f, Number(width), Number(height)))).then((r) => r.every(Boolean));
  },

  email: (value, _params, options) => {
    const { multiple, rest } = emailOptions(options);
    const check = (v: unknown) => validator.isEmail(String(v), rest);
    if (Array.isArray(value)) return value.every(check);
    if (multiple)
      return String(value)
        .split(',')
        .map((s) => s.trim())
        .every(check);
    return check(value);
  },

  excluded: (value, list) => !included(value, list),

  ext: (value, extensions) => {
    const re = new RegExp(`.(${extensions.map(String).join('|')})$`, 'i');
    return filesOf(value).every((f) => re.test(fileName(f)));
  },

  image: (value) => (Array.isArray(value) ? value : [value]).every((f: FileLike) => IMAGE_NAME.test(fileName(f))),

  included: (value, list) => included(value, list),

  integer: (value) => (Array.isArray(value) ? value.every((v) => /^-?[0-9]+$/.test(String(v))) : /^-?[0-9]+$/.test(String(value))),

  ip: (value, [version = 4]) => {
    const check = (v: unknown) => stringOnly(v, (s) => validator.isIP(s, String(version) as validator.IPVersion));
    return Array.isArray(value) ? value.every(check) : check(value);
  },

  ip_or_fqdn: (value) => {
    const check = (v: unknown) => stringOnly(v, (s) => validator.isIP(s) || validator.isFQDN(s));
    return Array.isArray(value) ? value.every(check) : check(value);
  },

  is: (value, [other]) => value === other,
  is_not: (value, [other]) => value !== other,

  length: (value, [length, max]) => {
    if (isNullish(value)) return false;
    let v: unknown = typeof value === 'number' ? String(value) : value;
    if (!(v as { length?: unknown }).length) v = Array.from(v as Iterable<unknown>);
    const len = Number((v as { length: number }).length);
    if (max === undefined) return len === Number(length);
    return len >= Number(length) && len <= Number(max);
  },

  max: (value, [length]) => {
    if (isNullish(value)) return Number(length) >= 0;
    if (Array.isArray(value)) return every(value, (v) => rules.max?.(v, [length]) === true);
    return String(value).length <= Number(length);
  },

  max_value: (value, [max]) => {
    if (isNullish(value) || value === '') return false;
    if (Array.isArray(value)) return value.length > 0 && every(value, (v) => rules.max_value?.(v, [max]) === true);
    return Number(value) <= Number(max);
  },

  mimes: (value, types) => {
    const re = new RegExp(`${types.map(String).join('|').replace('*', '.+')}$`, 'i');
    return filesOf(value).every((f) => re.test(String(f?.type ?? '')));
  },

  min: (value, [length]) => {
    if (isNullish(value)) return false;
    if (Array.isArray(value)) return every(value, (v) => rules.min?.(v, [length]) === true);
    return String(value).length >= Number(length);
  },

  min_value: (value, [min]) => {
    if (isNullish(value) || value === '') return false;
    if (Array.isArray(value)) return value.length > 0 && every(value, (v) => rules.min_value?.(v, [min]) === true);
    return Number(value) >= Number(min);
  },

  numeric: (value) => {
    const check = (v: unknown) => /^[0-9]+$/.test(String(v)) || /^[٠١٢٣٤٥٦٧٨٩]+$/.test(String(v));
    return Array.isArray(value) ? value.every(check) : check(value);
  },

  regex: (value, [expression]) => {
    const re = expression instanceof RegExp ? expression : new RegExp(String(expression));
    return Array.isArray(value) ? value.every((v) => re.test(String(v))) : re.test(String(value));
  },

  required: (value, [invalidateFalse = false]) => {
    if (isNullish(value) || (Array.isArray(value) && value.length === 0)) return false;
    if (value === false && invalidateFalse) return false;
    return String(value).trim().length > 0;
  },

  required_if: (value, [target, ...values]) => {
    const required = values.includes(String(target).trim());
    if (!required) return { valid: true, data: { required } };
    if ((Array.isArray(value) && value.length === 0) || isNullish(value) || value === false) return { valid: false, data: { required } };
    return { valid: String(value).trim().length > 0, data: { required } };
  },

  size: (value, [size]) => {
    // Global isNaN on purpose: '' is 0 KB, 'abc' fails (the original's coercion).
    if (Number.isNaN(Number(size))) return false;
    const limit = Number(size) * 1024;
    return filesOf(value).every((f) => Number(f?.size) <= limit);
  },

  url: (value, _params, options) => {
    const opts = options && typeof options === 'object' && !Array.isArray(options) ? (options as validator.IsURLOptions) : {};
    const check = (v: unknown) => stringOnly(v, (s) => validator.isURL(s, opts));
    return Array.isArray(value) ? value.every(check) : check(value);
  },
};
