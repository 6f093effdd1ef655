import { createTheme, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import '@mantine/core/styles.css';
import '../app/styles.css';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm' });

/**
 * Mantine's provider and styles. Mounted by the signed-in shell and the 404 page, not by the
 * entry, so the login route stays small (docs/decisions/002-lean-login-route.md).
 */
export function MantineRoot({ children }: { children: ReactNode }) {
  return <MantineProvider theme={theme}>{children}</MantineProvider>;
}
