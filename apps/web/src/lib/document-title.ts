import { useEffect } from 'react';

/** Sets `<label> · Admin Panel` as the document title. */
export function useDocumentTitle(label: string): void {
  useEffect(() => {
    document.title = `${label} · Admin Panel`;
  }, [label]);
}
