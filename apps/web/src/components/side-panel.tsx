import { Drawer, type DrawerProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDiscardGuard, useGuardedClose } from './discard-guard.tsx';

/** The title at the size of an h4, bold, as the screens' section headings. */
const PANEL_TITLE = {
  title: {
    fontSize: 'var(--mantine-h4-font-size)',
    fontWeight: 'var(--mantine-h4-font-weight)',
    lineHeight: 'var(--mantine-h4-line-height)',
  },
};

/**
 * The screens' right-hand panel for a form or a record's details, titled as an `<h2>` (Mantine's
 * drawer title is the heading itself: a Title inside it nested a heading in a heading). Closing
 * it (Escape, the close button, a click outside, or a form's Cancel) asks "Discard changes?"
 * while a form inside reports unsaved changes through `usePanelForm`.
 */
export function SidePanel(props: { opened: boolean; onClose(): void; title: ReactNode; size: DrawerProps['size']; children: ReactNode }) {
  const guard = useDiscardGuard(props.opened, props.onClose);
  return (
    <>
      <Drawer
        opened={props.opened}
        onClose={guard.requestClose}
        position="right"
        size={props.size}
        trapFocus={guard.trapFocus}
        closeButtonProps={{ 'aria-label': 'Close panel' }}
        title={props.title}
        styles={PANEL_TITLE}
      >
        {guard.provide(props.children)}
      </Drawer>
      {guard.question}
    </>
  );
}

/**
 * For a form inside a SidePanel (or a GuardedModal): reports whether it has unsaved changes and
 * returns the close its Cancel button should call (asking first when there are changes).
 */
export const usePanelForm: (dirty: boolean, onCancel: () => void) => () => void = useGuardedClose;
