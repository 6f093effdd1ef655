import { STATUS_LABELS, STATUS_TRANSITIONS, type Status, transitionLabel } from '@admin/shared/constants';
import { Badge, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useKeptState } from '../data-table/kept-state.tsx';

const COLORS: Record<Status, string> = { active: 'green', paused: 'yellow', inactive: 'gray' };

export function StatusBadge({ status }: { status: Status }) {
  return (
    <Badge color={COLORS[status]} variant="light" styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * The status actions of one record (Pause, Resume, Archive, Restore). Each asks for confirmation
 * in a dialog that says what the change does; `onChange` performs it.
 */
export function StatusActions(props: {
  status: Status;
  what: string;
  effects?: Partial<Record<Status, string>>;
  onChange(to: Status): Promise<void>;
}) {
  const [pending, setPending] = useKeptState<Status | null>(`status:${props.what}`, null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = pending ? transitionLabel(props.status, pending) : '';

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      await props.onChange(pending);
      setPending(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Group gap={4} wrap="nowrap">
        {STATUS_TRANSITIONS[props.status].map((to) => (
          <Button
            key={to}
            size="compact-xs"
            variant="subtle"
            color={to === 'inactive' ? 'red' : undefined}
            // One width for every transition, so Archive sits at the same place after Pause or Resume.
            className="status-action"
            aria-label={`${transitionLabel(props.status, to)} ${props.what}`}
            onClick={() => setPending(to)}
          >
            {transitionLabel(props.status, to)}
          </Button>
        ))}
      </Group>
      <Modal opened={pending !== null} onClose={() => setPending(null)} title={`${label} ${props.what}?`} centered>
        <Text size="sm">{pending ? (props.effects?.[pending] ?? `${props.what} will be ${STATUS_LABELS[pending]}.`) : null}</Text>
        {error && (
          <Text size="sm" c="red" mt="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button color={pending === 'inactive' ? 'red' : undefined} loading={busy} onClick={() => void confirm()}>
            {label}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
