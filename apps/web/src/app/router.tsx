import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { returnState } from '../lib/return-to.ts';
import { isSignedIn } from '../lib/session-storage.ts';
import { SCREEN_ROUTES } from './routes.ts';

/**
 * The guard (docs/overview.md, Signing in): only the signed-in flag's presence is checked; the server checks the rest.
 * The page asked for rides along in the history state, so sign-in can land there.
 */
export function RequireSession() {
  const location = useLocation();
  return isSignedIn(window.sessionStorage) ? <Outlet /> : <Navigate to="/login" replace state={returnState(location)} />;
}

function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading…
    </div>
  );
}

export const routeObjects: RouteObject[] = [
  {
    // Shown while the first lazy route of a page load arrives.
    HydrateFallback: PageLoading,
    Component: Outlet,
    children: [
      { path: '/login', lazy: async () => ({ Component: (await import('../features/auth/login-page.tsx')).default }) },
      { path: '/404', lazy: async () => ({ Component: (await import('../features/errors/not-found-page.tsx')).default }) },
      {
        Component: RequireSession,
        children: [
          {
            lazy: async () => ({ Component: (await import('./app-layout.tsx')).default }),
            children: SCREEN_ROUTES.map((r) => ({
              path: r.path,
              handle: { label: r.label },
              lazy: async () => ({ Component: (await r.load()).default }),
            })),
          },
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
