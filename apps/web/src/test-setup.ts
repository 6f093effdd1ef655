// Browser APIs jsdom lacks, which Mantine uses.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { writeDocumentCookie } from './lib/session-storage.ts';

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class ResizeObserverShim {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => undefined;

afterEach(() => {
  // Unmounted after each test (vitest runs without globals, so Testing Library cannot do it itself):
  // a closed dialog's focus-return timer is cleared instead of firing after jsdom is gone.
  cleanup();
  window.sessionStorage.clear();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) writeDocumentCookie(`${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`);
  });
});
