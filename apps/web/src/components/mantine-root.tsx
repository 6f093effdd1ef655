import { createTheme, Drawer, Loader, MantineProvider, Modal, Notification } from '@mantine/core';
import type { ReactNode } from 'react';
import '@mantine/core/styles.css';
import '../app/styles.css';
import { accessibleColors } from './accessible-colors.ts';

// Mantine's close buttons are an icon with no text: every dialog and drawer gets a name for
// screen readers here, once, unless it gives its own ("Close panel" in side-panel.tsx); so does every toast.
// A spinner is a progress bar without a value (busy, for how long unknown): its aria-label ("Refreshing",
// "Loading users") is prohibited on a plain span, and axe says so; the one inside a busy button is hidden.
// A person who asks their system for less motion gets menus, dialogs and toasts without transitions.
const theme = createTheme({
  respectReducedMotion: true,
  primaryColor: 'blue',
  defaultRadius: 'sm',
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
    Loader: Loader.extend({ defaultProps: { role: 'progressbar' } }),
  },
});

/**
 * Mantine's provider and styles. Mounted by the signed-in shell and the 404 page, not by the
 * entry, so the login route stays small (docs/decisions/002-lean-login-route.md).
 */
export function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={accessibleColors}>
      {children}
    </MantineProvider>
  );
}
