import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { isSignedIn } from '../lib/session-storage.ts';
import { SCREEN_ROUTES } from './routes.ts';

/** The guard (spec §2): only the signed-in flag's presence is checked; the server checks the rest. */
export function RequireSession() {
  return isSignedIn(window.sessionStorage) ? <Outlet /> : <Navigate to="/login" replace />;
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
