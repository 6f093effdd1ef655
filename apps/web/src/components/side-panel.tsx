import { Button, Drawer, type DrawerProps, Group, Modal, Text, Title } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

type PanelGuard = {
  /** A form in the panel says whether it holds unsaved changes. */
  setDirty(dirty: boolean): void;
  /** Closes the panel, asking first when a form in it has unsaved changes. */
  requestClose(): void;
};

const PanelGuardContext = createContext<PanelGuard | null>(null);

/**
 * The screens' right-hand panel for a form or a record's details, titled as an `<h2>`. Closing
 * it (Escape, the close button, a click outside, or a form's Cancel) asks "Discard changes?"
 * while a form inside reports unsaved changes through `usePanelForm`.
 */
export function SidePanel(props: { opened: boolean; onClose(): void; title: ReactNode; size: DrawerProps['size']; children: ReactNode }) {
  const { opened } = props;
  // The latest onClose, so the guard handed to forms stays the same object across renders.
  const onCloseRef = useRef(props.onClose);
  onCloseRef.current = props.onClose;
  const dirty = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const confirmingRef = useRef(false);
  confirmingRef.current = confirming;

  const requestClose = useCallback(() => {
    // Escape reaches every open dialog; while the question is up, it answers only the question.
    if (confirmingRef.current) return;
    if (!dirty.current) onCloseRef.current();
    // Asked in the next task: opened at once, the question's own Escape handler would see the
    // same key press that asked it and close it again.
    else window.setTimeout(() => setConfirming(true), 0);
  }, []);

  useEffect(() => {
    if (!opened) {
      dirty.current = false;
      setConfirming(false);
    }
  }, [opened]);

  const guard = useMemo<PanelGuard>(
    () => ({
      setDirty: (value) => {
        dirty.current = value;
      },
      requestClose,
    }),
    [requestClose],
  );

  return (
    <>
      <Drawer
        opened={opened}
        onClose={requestClose}
        position="right"
        size={props.size}
        // The question's dialog holds the focus while it is up.
        trapFocus={!confirming}
        closeButtonProps={{ 'aria-label': 'Close panel' }}
        title={
          <Title order={2} size="h4">
            {props.title}
          </Title>
        }
      >
        <PanelGuardContext.Provider value={guard}>{props.children}</PanelGuardContext.Provider>
      </Drawer>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Discard changes?"
        centered
        zIndex={400}
        withCloseButton={false}
      >
        <Text size="sm">The changes you made in this form have not been saved. They will be lost if you close it.</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
            Keep editing
          </Button>
          <Button
            color="red"
            onClick={() => {
              dirty.current = false;
              setConfirming(false);
              onCloseRef.current();
            }}
          >
            Discard changes
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/**
 * For a form inside a SidePanel: reports whether it has unsaved changes and returns the close
 * its Cancel button should call (asking first when there are changes). Outside a panel it
 * returns `onCancel` as it is.
 */
export function usePanelForm(dirty: boolean, onCancel: () => void): () => void {
  const guard = useContext(PanelGuardContext);
  useEffect(() => {
    guard?.setDirty(dirty);
  }, [guard, dirty]);
  useEffect(() => () => guard?.setDirty(false), [guard]);
  return guard ? guard.requestClose : onCancel;
}
