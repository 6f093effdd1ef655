import { RESPONSE_REASSIGN_LABELS, type SurveyResponseDetail, surveyResponseResource } from '@admin/shared/resources/survey-responses';
import { Box, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { ApiError, api } from '../../lib/http.ts';

type Target = {
  /** The body field (its input labelled as the server's 422 names it) and the option route's last segment. */
  field: 'personnel_id' | 'location_id';
  option: 'personnel' | 'location';
  current: string | null;
  currentLabel: string | null;
  done: string;
};

/**
 * Reassign one attribution of a response (personnel or location) to another of the response's
 * client: the options page on the server as the user types (`/:id/options/<what>?q=`), and the
 * server's 422 shows on the field.
 */
function Reassign({ detail, target }: { detail: SurveyResponseDetail; target: Target }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `${surveyResponseResource.path}/${detail.id}/options/${target.option}`;
  const label = RESPONSE_REASSIGN_LABELS[target.field];
  const submit = async () => {
    if (!value) return setError(`The ${label} field is required`);
    const id = target.field === 'personnel_id' ? Number(value) : value;
    setBusy(true);
    try {
      await api.post(`${surveyResponseResource.path}/${detail.id}/${target.option}`, { [target.field]: id });
      notifications.show({ color: 'green', message: target.done });
      setValue(null);
      setError(null);
      await queryClient.invalidateQueries();
    } catch (e) {
      setError(e instanceof ApiError ? (e.fieldErrors[target.field]?.[0] ?? e.message) : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    // At phone width the button wraps under the field, so the field keeps the drawer's width.
    <Group align="flex-end" gap="xs">
      <Box style={{ flex: '1 1 240px', minWidth: 0 }}>
        <RemoteSelect
          label={label}
          placeholder={target.currentLabel ? `Now: ${target.currentLabel}` : 'Type to search'}
          path={path}
          // The response's own is no new choice.
          exclude={(v) => v === target.current}
          value={value}
          onChange={(v) => {
            setValue(v);
            setError(null);
          }}
          error={error}
          clearable
        />
      </Box>
      <Button variant="light" w={180} onClick={() => void submit()} loading={busy} mb={error ? 22 : 0}>
        Reassign {target.option}
      </Button>
    </Group>
  );
}

/** Reassign personnel and Reassign location, within the response's client. */
export function ResponseReassign({ detail }: { detail: SurveyResponseDetail }) {
  return (
    <>
      <Text fw={600}>Attribution</Text>
      <Reassign
        key={`p-${detail.personnel_id}`}
        detail={detail}
        target={{
          field: 'personnel_id',
          option: 'personnel',
          current: detail.personnel_id === null ? null : String(detail.personnel_id),
          currentLabel: detail.personnel_name,
          done: 'Personnel reassigned',
        }}
      />
      <Reassign
        key={`l-${detail.location_id}`}
        detail={detail}
        target={{
          field: 'location_id',
          option: 'location',
          current: detail.location_id,
          currentLabel: detail.location_name,
          done: 'Location reassigned',
        }}
      />
    </>
  );
}
