import type { ColumnDef } from '@admin/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../../lib/http.ts';

/** Every column in display order, and which of them are hidden. */
export type ColumnChoice = { order: string[]; hidden: string[] };

/**
 * Reads a stored choice against the current definition: unknown keys are dropped, columns added
 * since are appended (shown if they are shown by default), and at least one column stays visible.
 */
export function resolveChoice(columns: readonly ColumnDef[], stored: unknown): ColumnChoice {
  const keys = columns.map((c) => c.key);
  const defaults: ColumnChoice = { order: keys, hidden: columns.filter((c) => c.defaultVisible === false).map((c) => c.key) };
  const s = stored as Partial<ColumnChoice> | null;
  if (!s || !Array.isArray(s.order) || !Array.isArray(s.hidden)) return defaults;
  const known = new Set(keys);
  const order = [...new Set(s.order.filter((k): k is string => typeof k === 'string' && known.has(k)))];
  const added = keys.filter((k) => !order.includes(k));
  const hidden = [
    ...s.hidden.filter((k): k is string => typeof k === 'string' && known.has(k)),
    ...added.filter((k) => defaults.hidden.includes(k)),
  ];
  const choice = { order: [...order, ...added], hidden: [...new Set(hidden)] };
  return choice.order.some((k) => !choice.hidden.includes(k)) ? choice : defaults;
}

/**
 * The column choice of one table, stored per user on the server
 * (`/api/preferences/table:<key>`) so it follows the user across reloads and browsers.
 */
export function useColumnPreference(tableKey: string, columns: readonly ColumnDef[]) {
  const queryClient = useQueryClient();
  const queryKey = ['preferences', `table:${tableKey}`];
  const stored = useQuery({
    queryKey,
    queryFn: async () => (await api.get<{ data: unknown }>(`/api/preferences/table:${tableKey}`)).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const save = useMutation({
    // Saves run one after another, so the server ends with the last choice.
    scope: { id: `preferences:table:${tableKey}` },
    mutationFn: (choice: ColumnChoice) => api.put(`/api/preferences/table:${tableKey}`, { value: choice }),
    onSuccess: (_data, choice) => queryClient.setQueryData(queryKey, choice),
    onError: (err) => console.error('Failed to save the column choice', err),
  });
  // The user's latest choice wins at once, over a first load still in flight and over saves
  // still on their way (clicks can come faster than the server answers).
  const [local, setLocal] = useState<ColumnChoice | null>(null);
  const resolved = useMemo(() => resolveChoice(columns, stored.data ?? null), [columns, stored.data]);
  const choice = local ?? resolved;
  const visible = useMemo(() => choice.order.filter((k) => !choice.hidden.includes(k)), [choice]);
  return {
    choice,
    visible,
    setChoice: (next: ColumnChoice) => {
      setLocal(next);
      save.mutate(next);
    },
    ready: !stored.isPending,
  };
}
