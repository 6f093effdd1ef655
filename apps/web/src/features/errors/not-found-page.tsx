import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { AppFooter } from '../../components/app-footer.tsx';
import { MantineRoot } from '../../components/mantine-root.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { isSignedIn } from '../../lib/session-storage.ts';

/**
 * `/404`: no navigation bar (docs/overview.md, The shell), but the page keeps its
 * landmarks — a main region and the footer — and a way home.
 */
export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  const navigate = useNavigate();
  const signedIn = isSignedIn(window.sessionStorage);
  return (
    <MantineRoot>
      <div className="not-found-page">
        <header className="not-found-brand">
          <Text component={Link} to="/" fw={700} size="lg" c="dark" td="none" className="app-brand">
            Admin Panel
          </Text>
        </header>
        <main className="not-found-main">
          <Stack align="center" gap="sm" ta="center">
            <Text c="dimmed" fw={700} size="xl">
              404
            </Text>
            <Title order={1}>Page not found</Title>
            <Text c="dimmed">The page you asked for does not exist or has moved.</Text>
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to="/">
                {signedIn ? 'Go to Client Manager' : 'Go to sign in'}
              </Button>
              {window.history.length > 1 && (
                <Button variant="default" onClick={() => void navigate(-1)}>
                  Go back
                </Button>
              )}
            </Group>
          </Stack>
        </main>
        <AppFooter />
      </div>
    </MantineRoot>
  );
}
