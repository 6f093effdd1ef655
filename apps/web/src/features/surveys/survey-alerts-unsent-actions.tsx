import { dismissSchema, E164_PHONE, type SurveyAlertEvent, surveyAlertEventResource } from '@admin/shared/resources/survey-alert-events';
import { Anchor, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { api, messagesOf } from '../../lib/http.ts';

const path = surveyAlertEventResource.path;

/** The Send to field's rule, the server's (apps/server/src/alerts/unsent/routes.ts): an address or an E.164 phone. */
function sendToProblem(channel: SurveyAlertEvent['channel'], to: string): string | null {
  const value = to.trim();
  if (value === '') return 'The Send to field is required';
  if (channel === 'email') return z.email().safeParse(value).success ? null : 'The Send to field must be a valid email';
  return E164_PHONE.test(value) ? null : 'The Send to field must be a phone in E.164 form (+15555550142)';
}

/** Resend, Resend to… and Dismiss for an unsent or retrying alert; links to its rule and response. */
export function EventActions({ event }: { event: SurveyAlertEvent }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const open = event.state === 'unsent' || event.state === 'retrying';

  async function run(action: string, body: object, done: string) {
    setBusy(action);
    setErrors({});
    try {
      const { data } = await api.post<{ data: SurveyAlertEvent }>(`${path}/${event.id}/${action}`, body);
      notifications.show({
        color: data.state === 'unsent' ? 'orange' : 'green',
        message: data.state === 'unsent' ? 'Still not delivered' : done,
      });
      await queryClient.invalidateQueries();
    } catch (e) {
      setErrors(messagesOf(e));
    } finally {
      setBusy(null);
    }
  }

  const links = (
    <Group gap="md">
      <Anchor href={`/admin/survey-alert-settings?q=${encodeURIComponent(event.rule_name)}`}>Open the rule</Anchor>
      {event.response_id !== null && event.survey_id !== null && (
        <Anchor href={`/admin/survey-manager?survey=${event.survey_id}&client=${event.client_id}`}>Open the response</Anchor>
      )}
    </Group>
  );
  if (!open) return links;
  return (
    <Stack gap="sm">
      {links}
      <Text fw={600}>Actions</Text>
      {errors[''] && (
        <Text c="red" size="sm" role="alert">
          {errors['']}
        </Text>
      )}
      <Button variant="light" loading={busy === 'resend'} onClick={() => void run('resend', {}, 'Alert resent')}>
        Resend
      </Button>
      <Group align="flex-start">
        <TextInput
          label="Send to"
          description={event.channel === 'email' ? 'Another e-mail address' : 'Another phone, E.164 (+15555550142)'}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={errors.to}
        />
        <Button
          variant="light"
          mt={46}
          loading={busy === 'resend-to'}
          onClick={() => {
            const problem = sendToProblem(event.channel, to);
            if (problem) return setErrors({ to: problem });
            void run('resend-to', { to: to.trim() }, `Alert sent to ${to.trim()}`);
          }}
        >
          Resend to…
        </Button>
      </Group>
      <Textarea
        label="Note"
        description="Why nobody needs this alert (at most 500 characters)"
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        error={errors.note}
      />
      <Button
        variant="light"
        color="gray"
        loading={busy === 'dismiss'}
        onClick={() => {
          const checked = dismissSchema.safeParse({ note });
          if (!checked.success) return setErrors({ note: checked.error.issues[0]?.message ?? 'The Note field is required' });
          void run('dismiss', checked.data, 'Alert dismissed');
        }}
      >
        Dismiss
      </Button>
    </Stack>
  );
}
