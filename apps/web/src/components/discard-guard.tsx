import { Button, Group, Modal, type ModalProps, Text } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

type CloseGuard = {
  /** A form inside says whether it holds unsaved changes. */
  setDirty(dirty: boolean): void;
  /** Closes the drawer or dialog, asking first when a form in it has unsaved changes. */
  requestClose(): void;
};

const CloseGuardContext = createContext<CloseGuard | null>(null);

/**
 * The "Discard changes?" question of a drawer or dialog holding a form (SidePanel, GuardedModal):
 * `requestClose` closes at once while no form inside reports unsaved changes, and asks first
 * otherwise. The caller renders `question` beside its drawer or dialog, wraps the content in
 * `provide` (so forms reach the guard through `useGuardedClose`), and keeps `trapFocus` off while
 * the question is up, since the question's dialog holds the focus then.
 */
export function useDiscardGuard(opened: boolean, onClose: () => void) {
  // The latest onClose, so the guard handed to forms stays the same object across renders.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
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

  const guard = useMemo<CloseGuard>(
    () => ({
      setDirty: (value) => {
        dirty.current = value;
      },
      requestClose,
    }),
    [requestClose],
  );

  const provide = (children: ReactNode) => <CloseGuardContext.Provider value={guard}>{children}</CloseGuardContext.Provider>;
  const question = (
    <Modal opened={confirming} onClose={() => setConfirming(false)} title="Discard changes?" centered zIndex={400} withCloseButton={false}>
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
  );
  return { requestClose, trapFocus: !confirming, provide, question };
}

/**
 * For a form inside a SidePanel or a GuardedModal: reports whether it has unsaved changes and
 * returns the close its Cancel button should call (asking first when there are changes). Outside
 * both it returns `onCancel` as it is.
 */
export function useGuardedClose(dirty: boolean, onCancel: () => void): () => void {
  const guard = useContext(CloseGuardContext);
  useEffect(() => {
    guard?.setDirty(dirty);
  }, [guard, dirty]);
  useEffect(() => () => guard?.setDirty(false), [guard]);
  return guard ? guard.requestClose : onCancel;
}

/**
 * Whether a form's plain values (strings, numbers, booleans, arrays of them) differ from what they
 * were when the form mounted: its "has unsaved changes".
 */
export function useChanged(values: unknown): boolean {
  const [initial] = useState(() => JSON.stringify(values));
  return JSON.stringify(values) !== initial;
}

/**
 * A dialog holding a form: Escape, the close button and a click outside ask "Discard changes?"
 * first while a form inside (through `useGuardedClose`, or the dialog kit's `dirty`) reports
 * unsaved changes, as the side panels do.
 */
export function GuardedModal({ opened, onClose, children, ...props }: ModalProps) {
  const guard = useDiscardGuard(opened, onClose);
  return (
    <>
      <Modal {...props} opened={opened} onClose={guard.requestClose} trapFocus={guard.trapFocus}>
        {guard.provide(children)}
      </Modal>
      {guard.question}
    </>
  );
}
