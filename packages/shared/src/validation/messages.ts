/**
 * The en messages of vee-validate 2.2.15: functions of the field's display name
 * and the rule's params (the date format the pipeline appends is not included). No trailing period.
 */
type Message = (field: string, params: unknown[]) => string;

const UNITS = ['Byte', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** `size:1536` → "1.5 MB" (formatFileSize of the original). */
export function formatFileSize(kilobytes: unknown): string {
  const bytes = Number(kilobytes) * 1024;
  const i = bytes === 0 ? 0 : Math.floor(Math.log(bytes) / Math.log(1024));
  const value = Number((bytes / 1024 ** i).toFixed(2));
  return `${value} ${UNITS[i] ?? 'Byte'}`;
}

const p = (params: unknown[], i: number) => String(params[i] ?? '');

export const DEFAULT_MESSAGE: Message = (field) => `The ${field} value is not valid`;

export const messages: Record<string, Message> = {
  after: (f, ps) => `The ${f} must be after ${ps[1] ? 'or equal to ' : ''}${p(ps, 0)}`,
  alpha: (f) => `The ${f} field may only contain alphabetic characters`,
  alpha_dash: (f) => `The ${f} field may contain alpha-numeric characters as well as dashes and underscores`,
  alpha_num: (f) => `The ${f} field may only contain alpha-numeric characters`,
  alpha_spaces: (f) => `The ${f} field may only contain alphabetic characters as well as spaces`,
  before: (f, ps) => `The ${f} must be before ${ps[1] ? 'or equal to ' : ''}${p(ps, 0)}`,
  between: (f, ps) => `The ${f} field must be between ${p(ps, 0)} and ${p(ps, 1)}`,
  confirmed: (f) => `The ${f} confirmation does not match`,
  credit_card: (f) => `The ${f} field is invalid`,
  date_between: (f, ps) => `The ${f} must be between ${p(ps, 0)} and ${p(ps, 1)}`,
  date_format: (f, ps) => `The ${f} must be in the format ${p(ps, 0)}`,
  decimal: (f, ps) => {
    const decimals = ps[0];
    return decimals === undefined || decimals === null || decimals === '' || decimals === '*'
      ? `The ${f} field must be numeric and may contain decimal points`
      : `The ${f} field must be numeric and may contain ${String(decimals)} decimal points`;
  },
  digits: (f, ps) => `The ${f} field must be numeric and contains exactly ${p(ps, 0)} digits`,
  dimensions: (f, ps) => `The ${f} field must be ${p(ps, 0)} pixels by ${p(ps, 1)} pixels`,
  email: (f) => `The ${f} field must be a valid email`,
  excluded: (f) => `The ${f} field must be a valid value`,
  ext: (f) => `The ${f} field must be a valid file`,
  image: (f) => `The ${f} field must be an image`,
  included: (f) => `The ${f} field must be a valid value`,
  integer: (f) => `The ${f} field must be an integer`,
  ip: (f) => `The ${f} field must be a valid ip address`,
  ip_or_fqdn: (f) => `The ${f} field must be a valid ip address or FQDN`,
  length: (f, ps) => (ps[1] ? `The ${f} length must be between ${p(ps, 0)} and ${p(ps, 1)}` : `The ${f} length must be ${p(ps, 0)}`),
  max: (f, ps) => `The ${f} field may not be greater than ${p(ps, 0)} characters`,
  max_value: (f, ps) => `The ${f} field must be ${p(ps, 0)} or less`,
  mimes: (f) => `The ${f} field must have a valid file type`,
  min: (f, ps) => `The ${f} field must be at least ${p(ps, 0)} characters`,
  min_value: (f, ps) => `The ${f} field must be ${p(ps, 0)} or more`,
  numeric: (f) => `The ${f} field may only contain numeric characters`,
  regex: (f) => `The ${f} field format is invalid`,
  required: (f) => `The ${f} field is required`,
  required_if: (f, ps) => `The ${f} field is required when the ${p(ps, 0)} field has this value`,
  size: (f, ps) => `The ${f} size must be less than ${formatFileSize(ps[0])}`,
  url: (f) => `The ${f} field is not a valid URL`,
};

export function messageFor(rule: string, field: string, params: unknown[]): string {
  return (messages[rule] ?? DEFAULT_MESSAGE)(field, params);
}
