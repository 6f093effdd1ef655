import { formatMoment } from '../api/zoned-time.ts';
import { QUESTION_TYPE_LABELS, type QuestionType } from '../surveys/questions.ts';

/**
 * Changes as people read them, on screen and in CSV alike (Survey Manager Logs' Changes, System
 * Logs' audit entries): each field by its form label, `before → after`, values in words rather
 * than JSON, a survey question as one line. The stored diff keeps the values as they were.
 */

/** A field's form label, or null when the caller has none (then the key is made readable). */
export type LabelOf = (key: string) => string | null;

/** `send_delay_hours` → `Send delay hours`, `question 3` → `Question 3`: a key without a label, readable at least. */
export const keyText = (key: string): string => {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isQuestionType = (v: unknown): v is QuestionType => typeof v === 'string' && Object.hasOwn(QUESTION_TYPE_LABELS, v);

/**
 * A survey question on one line: `“Why?” (Text, required)`; a choice question adds its options.
 *
 * @example questionText({ text: 'Why?', type: 'text', required: true }) // '“Why?” (Text, required)'
 */
export function questionText(q: Record<string, unknown>): string {
  const traits = [
    isQuestionType(q.type) ? QUESTION_TYPE_LABELS[q.type] : null,
    q.required === true ? 'required' : null,
    q.is_key_metric === true ? 'key metric' : null,
  ].filter((t): t is string => t !== null);
  const options = Array.isArray(q.options) && q.options.length > 0 ? `: ${q.options.map((o) => valueText(o)).join(' / ')}` : '';
  return `“${String(q.text ?? '')}”${traits.length > 0 ? ` (${traits.join(', ')})` : ''}${options}`;
}

/** A stored moment (`2026-11-26T09:40:42.066Z`): written as every time is, in the record's client's zone. */
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const looksLikeQuestion = (v: Record<string, unknown>) => typeof v.text === 'string' && isQuestionType(v.type);

/**
 * One value in words: `—` for none, Yes/No, a moment in `zone` (the client's) with the zone named,
 * a list joined by commas (a list of questions one per line), a question as `questionText`, any
 * other object as `label: value` pairs.
 */
export function valueText(value: unknown, labelOf: LabelOf = () => null, zone?: string | null): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return ISO_MOMENT.test(value) ? formatMoment(value, zone) || value : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    const items = value.map((v) => valueText(v, labelOf, zone));
    return value.every((v) => isRecord(v) && looksLikeQuestion(v)) ? items.map((t, i) => `${i + 1}. ${t}`).join('\n') : items.join(', ');
  }
  if (isRecord(value)) {
    if (looksLikeQuestion(value)) return questionText(value);
    return Object.entries(value)
      .map(([k, v]) => `${labelOf(k) ?? keyText(k)}: ${valueText(v, labelOf, zone)}`)
      .join('; ');
  }
  return String(value);
}

/** One changed field: its label and its value before and after, in words. */
export type DiffRow = { key: string; label: string; before: string; after: string };

/** The rows of a stored diff (`{ field: { before, after } }`), each field by its label. */
export function diffRows(
  diff: Record<string, { before: unknown; after: unknown }>,
  labelOf: LabelOf = () => null,
  zone?: string | null,
): DiffRow[] {
  return Object.entries(diff).map(([key, { before, after }]) => ({
    key,
    label: labelOf(key) ?? keyText(key),
    before: valueText(before, labelOf, zone),
    after: valueText(after, labelOf, zone),
  }));
}

/**
 * The fields an audited change touched, from the record before and after it: every field of a
 * record created or removed, only the differing ones of a record edited. Anything that is not
 * a record on both sides is one row, `Value`.
 */
export function auditDiff(before: unknown, after: unknown): Record<string, { before: unknown; after: unknown }> {
  const b = isRecord(before) ? before : null;
  const a = isRecord(after) ? after : null;
  if ((before !== null && before !== undefined && !b) || (after !== null && after !== undefined && !a))
    return { value: { before: before ?? null, after: after ?? null } };
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const diff: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of keys) {
    const was = b ? (b[key] ?? null) : null;
    const is = a ? (a[key] ?? null) : null;
    if (JSON.stringify(was) !== JSON.stringify(is)) diff[key] = { before: was, after: is };
  }
  return diff;
}

/**
 * A diff on one line for a table cell or CSV: `Name: Old → New; Send delay (hours): 24 → 48`
 * (a list of questions keeps its line breaks, which a CSV cell holds).
 */
export const diffRowsText = (rows: readonly DiffRow[]): string => rows.map((r) => `${r.label}: ${r.before} → ${r.after}`).join('; ');

/** What `describedDiff` reads of a resource definition (`defineResource`): its fields' labels and options. */
export type Described = {
  fields: Readonly<Record<string, { label: string; options?: readonly { value: string; label: string }[] | undefined }>>;
};

/**
 * A stored diff of one resource's record made readable by its definition: each field by its
 * form label, a chosen option by the option's label (`nps` → `NPS`), a list of linked ids by its
 * size (`3 selected`: the ids mean nothing to a reader).
 */
export function describedDiff(def: Described, diff: Record<string, { before: unknown; after: unknown }>, zone?: string | null): DiffRow[] {
  const shown = (key: string, v: unknown): unknown => {
    const options = Object.hasOwn(def.fields, key) ? def.fields[key]?.options : undefined;
    if (options && typeof v === 'string') return options.find((o) => o.value === v)?.label ?? v;
    if (key.endsWith('_ids') && Array.isArray(v)) return v.length === 0 ? null : `${v.length} selected`;
    return v;
  };
  const labelOf: LabelOf = (key) => (Object.hasOwn(def.fields, key) ? (def.fields[key]?.label ?? null) : null);
  return diffRows(
    Object.fromEntries(Object.entries(diff).map(([k, { before, after }]) => [k, { before: shown(k, before), after: shown(k, after) }])),
    labelOf,
    zone,
  );
}
