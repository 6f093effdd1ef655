import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router.tsx';
import { setUnauthorizedHandler } from './lib/http.ts';
import { useSession } from './lib/session-store.ts';
import './app/base.css';

const router = createRouter();

// Any 401 on a signed-in call: forget the session and go to /login (product.md §2).
setUnauthorizedHandler(() => {
  useSession.getState().clearLocal('Your session has ended. Please sign in again.');
  void router.navigate('/login', { replace: true });
});

void useSession.getState().startUp();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
