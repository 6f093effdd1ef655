import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { MantineRoot } from '../../components/mantine-root.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <MantineRoot>
      <Center mih="70vh">
        <Stack align="center" gap="sm">
          <Text c="dimmed" fw={700} size="xl">
            404
          </Text>
          <Title order={1}>Page not found</Title>
          <Text c="dimmed">The page you asked for does not exist or has moved.</Text>
          <Button component={Link} to="/">
            Go to Client Manager
          </Button>
        </Stack>
      </Center>
    </MantineRoot>
  );
}
