import { Alert, Text } from '@mantine/core';
import { Page } from './page.tsx';

/**
 * The honest state of a screen whose area is not built yet: its heading and a plain line,
 * never invented data.
 */
export function ScreenPlaceholder() {
  return (
    <Page>
      <Alert variant="light" color="gray" title="Not built yet">
        <Text size="sm">This screen is not built yet. Its data, filters and actions arrive with a later release.</Text>
      </Alert>
    </Page>
  );
}
