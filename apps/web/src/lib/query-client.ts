import { QueryClient } from '@tanstack/react-query';

/**
 * Server-state cache for the signed-in screens. Created in the signed-in layout's chunk so the
 * login route does not download TanStack Query.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
