import { QueryCache, QueryClient } from '@tanstack/react-query';

/**
 * Server-state cache for the signed-in screens. Created in the signed-in layout's chunk so the
 * login route does not download TanStack Query. A failed load is logged once, here (the screen
 * shows it with a retry); a query names what it loads in `meta.what`.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => console.error(`Failed to load ${String(query.meta?.what ?? query.queryKey[0])}`, err),
  }),
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
