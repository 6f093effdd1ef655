/**
 * Where to go after signing in: the page a signed-out visitor asked for. The route guard puts
 * that location in the history state of `/login` (`{ from }`), so the address bar still reads
 * `/login` and the link survives only inside this tab.
 */
export type ReturnState = { from?: { pathname?: unknown; search?: unknown; hash?: unknown } };

/** The history state the guard gives `/login` for a visitor who asked for `location`. */
export function returnState(location: { pathname: string; search: string; hash: string }): ReturnState {
  return { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
}

/**
 * The path to land on after sign-in: the asked-for page when it is one of this console's own
 * paths, else `/`. Never another origin (`//host`), never back to `/login`.
 *
 * @example returnPath({ from: { pathname: '/admin/personnel', search: '?q=ethan' } }) // '/admin/personnel?q=ethan'
 */
export function returnPath(state: unknown): string {
  const from = (state as ReturnState | null)?.from;
  const pathname = typeof from?.pathname === 'string' ? from.pathname : '';
  if (!pathname.startsWith('/') || pathname.startsWith('//') || pathname.includes('\\')) return '/';
  if (pathname === '/login' || pathname === '/404') return '/';
  const search = typeof from?.search === 'string' && from.search.startsWith('?') ? from.search : '';
  const hash = typeof from?.hash === 'string' && from.hash.startsWith('#') ? from.hash : '';
  return `${pathname}${search}${hash}`;
}
