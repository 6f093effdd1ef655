import { AppShell, Burger, Button, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Outlet, NavLink as RouterNavLink, useLocation, useNavigate } from 'react-router';
import { AppFooter } from '../components/app-footer.tsx';
import { MantineRoot } from '../components/mantine-root.tsx';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/session-store.ts';
import { ClientElsewhereDialog } from './client-elsewhere-dialog.tsx';
import { ClientSwitcher } from './client-switcher.tsx';
import { NAV_GROUPS, routesOf } from './routes.ts';
import '@mantine/notifications/styles.css';

/** The signed-in shell: navigation bar, burger sidebar on narrow screens, page, footer. */
export default function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Mantine's `lg` breakpoint, where the menus replace the burger's sidebar.
  const wide = useMediaQuery('(min-width: 75em)') ?? false;
  const location = useLocation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const signOut = useSession((s) => s.signOut);

  // Every navigation scrolls to the top (docs/overview.md, The shell) and closes the sidebar.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => {
    window.scrollTo(0, 0);
    close();
  }, [location.pathname, close]);

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
          // Below `lg` the seven menus, the switcher and Sign out do not fit on one line, so the
          // burger's sidebar takes the menus.
          navbar={{ width: 280, breakpoint: 'lg', collapsed: { desktop: true, mobile: !opened } }}
          padding="md"
        >
          {/* Bottom right, three at most: toasts never cover the navigation bar or each other's page. */}
          <Notifications position="bottom-right" limit={3} />
          <ClientElsewhereDialog />
          <AppShell.Header>
            <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
              <Group gap="sm" wrap="nowrap" miw={0}>
                <Burger opened={opened} onClick={toggle} hiddenFrom="lg" size="sm" aria-label="Toggle navigation" />
                <Text component={Link} to="/" fw={700} size="lg" c="dark" td="none" className="app-brand">
                  Admin Panel
                </Text>
                <Group gap={2} visibleFrom="lg" component="nav" aria-label="Main" wrap="nowrap">
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
              <Group gap="sm" wrap="nowrap" miw={0}>
                <ClientSwitcher />
                <Text size="sm" fw={500} visibleFrom="md" data-testid="current-user" className="app-user-name">
                  {user?.name}
                </Text>
                {/* On phones the sidebar holds Sign out: the switcher needs the header's width. */}
                <Button variant="subtle" size="sm" px="xs" visibleFrom="sm" onClick={() => void onSignOut()}>
                  Sign out
                </Button>
              </Group>
            </Group>
          </AppShell.Header>

          {/* Off screen (closed, or on wide screens) the sidebar is inert: no second Sign out and no
              hidden links for the keyboard or a screen reader to land on. */}
          <AppShell.Navbar
            p="xs"
            aria-label="Sidebar"
            className="app-sidebar"
            inert={!opened || wide}
            aria-hidden={!opened || wide ? true : undefined}
          >
            <ScrollArea style={{ flex: 1 }}>
              {NAV_GROUPS.map((group) => (
                <NavLink key={group} label={group} defaultOpened childrenOffset={12}>
                  {routesOf(group).map((r) => (
                    <NavLink key={r.path} component={RouterNavLink} to={r.path} end label={r.label} />
                  ))}
                </NavLink>
              ))}
            </ScrollArea>
            <Group justify="space-between" wrap="nowrap" gap="xs" pt="xs" className="app-sidebar-account">
              <Text size="sm" c="dimmed" truncate>
                Signed in as {user?.name}
              </Text>
              <Button variant="light" size="xs" onClick={() => void onSignOut()}>
                Sign out
              </Button>
            </Group>
          </AppShell.Navbar>

          <AppShell.Main className="app-main">
            {/* Keyed by path so each page change replays the fade between pages. */}
            <div key={location.pathname} className="page-fade">
              <Outlet />
            </div>
          </AppShell.Main>
          {/* Outside <main>, so it is the page's contentinfo landmark. */}
          <AppFooter />
        </AppShell>
      </QueryClientProvider>
    </MantineRoot>
  );
}
