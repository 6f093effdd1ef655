import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

type Store = { values: Record<string, unknown>; set(key: string, value: unknown): void };

const KeptState = createContext<Store | null>(null);

/**
 * Holds the open/closed state of the row actions' dialogs above the table/cards switch: a phone
 * turned sideways crosses 640 px, the list is drawn again as a table (or as cards), every row's
 * actions are mounted anew, and without this a dialog the user had open would vanish with them.
 */
export function KeptStateProvider({ children }: { children: ReactNode }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const set = useCallback((key: string, value: unknown) => setValues((v) => ({ ...v, [key]: value })), []);
  const store = useMemo(() => ({ values, set }), [values, set]);
  return <KeptState.Provider value={store}>{children}</KeptState.Provider>;
}

/**
 * `useState` for a row action's dialog that survives the list's change of layout: `key` names the
 * action and its row (e.g. `preview:12`). Outside a list it is a component's own state.
 */
export function useKeptState<T>(key: string, initial: T): [T, (value: T) => void] {
  const store = useContext(KeptState);
  const [own, setOwn] = useState<T>(initial);
  const set = useCallback((value: T) => (store ? store.set(key, value) : setOwn(value)), [store, key]);
  if (!store) return [own, set];
  return [Object.hasOwn(store.values, key) ? (store.values[key] as T) : initial, set];
}
