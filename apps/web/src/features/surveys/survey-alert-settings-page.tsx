import { DEFAULT_RECIPIENT_ID, type SurveyAlertRule, surveyAlertRuleResource } from '@admin/shared/resources/survey-alert-rules';
import { Button, Stack, Text } from '@mantine/core';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { DuplicateRuleAction, TestRuleAction } from './survey-alert-rule-actions.tsx';
import { SurveyAlertRuleForm } from './survey-alert-rule-form.tsx';

/**
 * Survey Alert Settings (domain.md §7): the rules that tell a client's people when a response needs
 * attention, of the current client or of the clients chosen in the Clients filter. Duplicate, Test
 * (the alert engine's sample alert), Pause/Resume and Archive per rule; Export; and "Edit defaults
 * for new users", which lists the rules naming Default for New User (docs/decisions/044-client-users.md).
 */
export default function SurveyAlertSettingsPage() {
  return (
    <ResourcePage
      resource={surveyAlertRuleResource}
      form={SurveyAlertRuleForm}
      panelSize="lg"
      intro={(list) => (
        <Stack gap={4}>
          <ClientsShown list={list} optionsPath={surveyAlertRuleResource.filters.client.optionsPath} />
          <Text size="sm" c="dimmed">
            <b>Default for New User</b> is not a person: people added to the client later (Client Manager, Users) join every rule that lists
            it, shown as “joined by default”.
          </Text>
          <div>
            <Button size="compact-sm" variant="light" onClick={() => list.update({ multi: { recipient: [String(DEFAULT_RECIPIENT_ID)] } })}>
              Edit defaults for new users
            </Button>
          </div>
        </Stack>
      )}
      rowActions={(row: SurveyAlertRule, list) => (
        <>
          <DuplicateRuleAction row={row} list={list} />
          <TestRuleAction row={row} />
        </>
      )}
    />
  );
}
