import { smsTemplateResource, smsTemplateTestSchema } from '@admin/shared/resources/sms-templates';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { compactPhone } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';

type TestResult = { id: number; status: string; error: string | null };

/**
 * Send test: the template rendered with sample values to one phone, through the same opt-out
 * checks and transport as every message; the result is a row in Tracking Logs.
 */
export function SendTestAction({ row }: { row: { id: number; name: string } }) {
  const [opened, setOpened] = useState(false);
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    // The server's own rule, checked here first so a typo is named without a round trip.
    const checked = smsTemplateTestSchema.safeParse({ phone: String(compactPhone(phone)) });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'The Phone field is not valid');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.post<{ data: TestResult }>(`${smsTemplateResource.path}/${row.id}/send-test`, checked.data);
      setOpened(false);
      notifications.show({
        color: data.status === 'sent' ? 'green' : 'orange',
        message:
          data.status === 'sent'
            ? `Test of ${row.name} sent; it is in Tracking Logs.`
            : `Test of ${row.name} not sent (${data.status}): ${data.error ?? ''}`,
      });
    } catch (e) {
      setError(e instanceof ApiError ? (e.fieldErrors.phone?.[0] ?? e.message) : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Send test of ${row.name}`} onClick={() => setOpened(true)}>
        Send test
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Send test of ${row.name}`}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">The message goes out with sample values (Alex, the current client's name, a test link).</Text>
            <TextInput
              label="Phone"
              required
              placeholder="e.g. +1 303 555 0142"
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Send test
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
