import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a list shows in place of rows when they could not load: the error and a Retry. */
export function ListError({ error, onRetry }: { error: Error; onRetry(): void }) {
  return (
    <Alert color="red" variant="light" title="Could not load this list" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** What a list shows when no row matches, and what to do about it. */
export function ListEmpty({ empty }: { empty: { title: string; action?: ReactNode } }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Text fw={500} ta="center">
          {empty.title}
        </Text>
        {empty.action}
      </Stack>
    </Center>
  );
}
