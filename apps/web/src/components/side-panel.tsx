import { Drawer, type DrawerProps, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDiscardGuard, useGuardedClose } from './discard-guard.tsx';

/**
 * The screens' right-hand panel for a form or a record's details, titled as an `<h2>`. Closing
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
        title={
          <Title order={2} size="h4">
            {props.title}
          </Title>
        }
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
