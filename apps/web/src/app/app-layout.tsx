import { AppShell, Burger, Button, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Outlet, NavLink as RouterNavLink, useLocation, useNavigate } from 'react-router';
import { MantineRoot } from '../components/mantine-root.tsx';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/session-store.ts';
import { ClientSwitcher } from './client-switcher.tsx';
import { NAV_GROUPS, routesOf } from './routes.ts';
import '@mantine/notifications/styles.css';

/** The signed-in shell: navigation bar, burger sidebar on narrow screens, page, footer. */
export default function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const signOut = useSession((s) => s.signOut);

  // Every navigation scrolls to the top (spec §2) and closes the mobile sidebar.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => {
    window.scrollTo(0, 0);
    close();
  }, [location.pathname, close]);

  // After a reload the session comes from storage; the location options are loaded here once.
  const loadEndpoints = useSession((s) => s.loadEndpoints);
  const hasClient = useSession((s) => s.currentClient !== null);
  useEffect(() => {
    if (hasClient && useSession.getState().locationOptions.length === 0) void loadEndpoints();
  }, [hasClient, loadEndpoints]);

  // Leaving the signed-in shell (sign-out, a 401) drops every cached answer.
  useEffect(() => () => queryClient.clear(), []);

  async function onSignOut() {
    await signOut();
    navigate('/login', { replace: true });
  }

  return (
    <MantineRoot>
      <QueryClientProvider client={queryClient}>
        <AppShell
          header={{ height: 60 }}
          navbar={{ width: 280, breakpoint: 'md', collapsed: { desktop: true, mobile: !opened } }}
          padding="md"
        >
          <Notifications position="top-right" />
          <AppShell.Header>
            <Group h="100%" px="md" justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" />
                <Text component={Link} to="/" fw={700} size="lg" c="dark" td="none">
                  Admin Panel
                </Text>
                <Group gap={2} visibleFrom="md" component="nav" aria-label="Main">
                  {NAV_GROUPS.map((group) => (
                    <Menu key={group} trigger="click-hover" openDelay={50} closeDelay={150} position="bottom-start" withinPortal>
                      <Menu.Target>
                        <UnstyledButton px="sm" py={6} className="nav-menu-button">
                          {group}
                        </UnstyledButton>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {routesOf(group).map((r) => (
                          <Menu.Item key={r.path} component={Link} to={r.path}>
                            {r.label}
                          </Menu.Item>
                        ))}
                      </Menu.Dropdown>
                    </Menu>
                  ))}
                </Group>
              </Group>
              <Group gap="sm" wrap="nowrap">
                <ClientSwitcher />
                <Text size="sm" fw={500} visibleFrom="sm" data-testid="current-user">
                  {user?.name}
                </Text>
                <Button variant="subtle" size="sm" onClick={() => void onSignOut()}>
                  Sign out
                </Button>
              </Group>
            </Group>
          </AppShell.Header>

          <AppShell.Navbar p="xs" aria-label="Sidebar">
            <ScrollArea>
              {NAV_GROUPS.map((group) => (
                <NavLink key={group} label={group} defaultOpened childrenOffset={12}>
                  {routesOf(group).map((r) => (
                    <NavLink key={r.path} component={RouterNavLink} to={r.path} end label={r.label} />
                  ))}
                </NavLink>
              ))}
              <Text size="sm" c="dimmed" px="sm" mt="md">
                Signed in as {user?.name}
              </Text>
            </ScrollArea>
          </AppShell.Navbar>

          <AppShell.Main>
            {/* Keyed by path so each page change replays the fade (spec §2). */}
            <div key={location.pathname} className="page-fade">
              <Outlet />
            </div>
            <footer className="app-footer">© {new Date().getFullYear()} Admin Panel</footer>
          </AppShell.Main>
        </AppShell>
      </QueryClientProvider>
    </MantineRoot>
  );
}
