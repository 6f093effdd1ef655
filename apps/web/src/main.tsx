import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router.tsx';
import { setUnauthorizedHandler } from './lib/http.ts';
import { returnState } from './lib/return-to.ts';
import { useSession } from './lib/session-store.ts';
import './app/base.css';

const router = createRouter();

// Any 401 on a signed-in call: forget the session and go to /login (docs/overview.md, Signing in).
// The page the user was on comes back after they sign in again.
setUnauthorizedHandler(() => {
  useSession.getState().clearLocal('Your session has ended. Please sign in again.');
  void router.navigate('/login', { replace: true, state: returnState(router.state.location) });
});

void useSession.getState().startUp();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
