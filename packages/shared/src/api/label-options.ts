/** A select's options from a closed list's labels, in the labels' order: `{ value, label }` each. */
export const labelOptions = <T extends string>(labels: Record<T, string>): { value: T; label: string }[] =>
  (Object.keys(labels) as T[]).map((value) => ({ value, label: labels[value] }));
