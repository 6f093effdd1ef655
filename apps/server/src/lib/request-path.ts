/**
 * The path a request names, the way a lenient reader would see it: absolute-form origin removed,
 * query and `;` parameters dropped, percent-escapes decoded, `.`/`..`/empty segments resolved,
 * lower-cased. Used only to *classify* requests that matched no route (is this an `/api` call?),
 * never to decide access for a matched route: that comes from the route itself (plugins/auth.ts).
 *
 * `lenientPath('HTTP://h/%41pi//./x/../clients;a=1?q')` → `/api/clients`
 */
export function lenientPath(url: string): string {
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  path = path.split(/[?#]/, 1)[0] ?? '';
  let decoded = path;
  // Decode repeatedly: `%2561` is `%61` is `a`, and a reader may decode more than once.
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      next = decoded.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const raw of decoded.replace(/\\/g, '/').split('/')) {
    const segment = raw.split(';', 1)[0]?.trim() ?? '';
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** Whether a path belongs to the API (as opposed to the console's pages and files). */
export function isApiPath(url: string): boolean {
  const path = lenientPath(url);
  return path === '/api' || path.startsWith('/api/');
}
