import { type SurveySettings, type SurveyTestEmailPreview, surveySettingsResource } from '@admin/shared/resources/survey-settings';
import { Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Labelled } from '../../components/field-grid.tsx';
import { MessageFrame } from '../../components/message-frame.tsx';
import { api } from '../../lib/http.ts';

/**
 * Send test email's intro: the test as the server will send it (`GET …/test-email`), so the From
 * shown is the From used — the platform's address until the client's own domain is verified, not
 * the From email typed in the settings — with the logo, colour and unsubscribe footer the
 * client's invitations carry.
 */
export function TestEmailIntro({ row }: { row: SurveySettings }) {
  const preview = useQuery({
    // The saved settings' version: a test opened after an edit shows the edit.
    queryKey: [surveySettingsResource.screen, row.id, 'test-email', row.updated_at],
    queryFn: async () => (await api.get<{ data: SurveyTestEmailPreview }>(`${surveySettingsResource.path}/${row.id}/test-email`)).data,
    meta: { what: 'the test e-mail' },
  });
  return (
    <Stack gap="xs">
      <Text size="sm">Sent with the sender, logo, colour and unsubscribe footer of {row.client_name}’s survey invitations.</Text>
      {preview.isPending && <Loader size="sm" aria-label="Loading the test e-mail" />}
      {preview.error && (
        <Text size="sm" c="red">
          {preview.error.message}
        </Text>
      )}
      {preview.data && (
        <>
          <Labelled label="From">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {preview.data.from}
              {preview.data.reply_to && ` · Reply-to ${preview.data.reply_to}`}
            </Text>
          </Labelled>
          <Labelled label="Subject">
            <Text size="sm" fw={600}>
              {preview.data.subject}
            </Text>
          </Labelled>
          <MessageFrame title="Test e-mail" html={preview.data.html} height={240} remoteImages />
        </>
      )}
    </Stack>
  );
}
