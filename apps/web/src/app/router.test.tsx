import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequireSession } from './router.tsx';
import { SCREEN_ROUTES } from './routes.ts';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <p>login screen</p> },
      { element: <RequireSession />, children: [{ path: '/admin/surveys', element: <p>surveys screen</p> }] },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the route guard', () => {
  it('sends a visitor without the signed-in flag to /login', async () => {
    const router = renderAt('/admin/surveys');
    expect(await screen.findByText('login screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('lets a signed-in tab through', async () => {
    sessionStorage.setItem('storage-auth-user-authenticated', 'true');
    renderAt('/admin/surveys');
    expect(await screen.findByText('surveys screen')).toBeTruthy();
  });
});

describe('the route table', () => {
  it('has the 28 signed-in routes of the spec and Scheduled reports, each with a unique path and label', () => {
    expect(SCREEN_ROUTES).toHaveLength(29);
    expect(new Set(SCREEN_ROUTES.map((r) => r.path)).size).toBe(29);
    expect(new Set(SCREEN_ROUTES.map((r) => r.label)).size).toBe(29);
    expect(SCREEN_ROUTES[0]).toMatchObject({ path: '/', label: 'Client Manager' });
  });
});
