import { CLIENT_USER_LABELS, CLIENT_USER_ROLE_OPTIONS, CLIENT_USERS_PATH, type ClientUser } from '@admin/shared/resources/client-users';
import { ALERT_CHANNEL_OPTIONS } from '@admin/shared/resources/survey-alert-rules';
import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { compactPhone } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';

type Values = { name: string; email: string; phone: string; role: string; alert_channels: string[] };
const L = CLIENT_USER_LABELS;

/**
 * Add or edit one client user: the server checks every field (the shared rules) and its messages
 * show beside their fields; an edit sends what changed with the version it read.
 */
export function ClientUserForm({
  clientId,
  user,
  onSaved,
  onCancel,
}: {
  clientId: number;
  user: ClientUser | null;
  onSaved(user: ClientUser): void;
  onCancel(): void;
}) {
  const [values, setValues] = useState<Values>({
    name: user?.name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    role: user?.role ?? 'staff',
    alert_channels: user?.alert_channels ?? ['email'],
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const error = (name: keyof Values) => errors[name]?.[0];

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(null);
    const body = { ...values, phone: values.phone.trim() === '' ? null : String(compactPhone(values.phone)) };
    try {
      const { data } = user
        ? await api.patch<{ data: ClientUser }>(`${CLIENT_USERS_PATH}/${user.id}`, { ...body, updated_at: user.updated_at })
        : await api.post<{ data: ClientUser }>(CLIENT_USERS_PATH, { ...body, client_id: clientId });
      onSaved(data);
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      else setFormError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void save(e)} noValidate>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={L.name}
            required
            value={values.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={error('name')}
          />
          <TextInput
            label={L.email}
            required
            type="email"
            value={values.email}
            onChange={(e) => set({ email: e.currentTarget.value })}
            error={error('email')}
          />
          <TextInput
            label={L.phone}
            placeholder="e.g. +1 303 555 0142"
            value={values.phone}
            onChange={(e) => set({ phone: e.currentTarget.value })}
            error={error('phone')}
          />
          <Select
            label={L.role}
            required
            data={[...CLIENT_USER_ROLE_OPTIONS]}
            value={values.role}
            onChange={(v) => set({ role: v ?? 'staff' })}
            error={error('role')}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Checkbox.Group
          label={L.alert_channels}
          value={values.alert_channels}
          onChange={(v) => set({ alert_channels: v })}
          error={error('alert_channels')}
        >
          <Group mt={4}>
            {ALERT_CHANNEL_OPTIONS.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {user ? 'Save changes' : 'Add user'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
