import { type ReviewAlertRule, reviewAlertRuleResource } from '@admin/shared/resources/review-alert-rules';
import { DEFAULT_RECIPIENT_ID } from '@admin/shared/resources/survey-alert-rules';
import { Button, Stack, Text } from '@mantine/core';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { DuplicateReviewRuleAction, SendTestAction } from './review-alert-rule-actions.tsx';
import { ReviewAlertRuleForm } from './review-alert-rule-form.tsx';

/**
 * Review Alert Settings (domain.md §11): the rules that tell a client's people when a public review
 * arrives, of the current client or of the clients chosen in the Clients filter. Duplicate, Send
 * test, Pause/Resume and Archive per rule; Export; and "Defaults for new users", which lists the
 * rules naming Default for New User, as Survey Alert Settings does.
 */
export default function ReviewAlertSettingsPage() {
  return (
    <ResourcePage
      resource={reviewAlertRuleResource}
      form={ReviewAlertRuleForm}
      panelSize="lg"
      intro={(list) => (
        <Stack gap={4}>
          <ClientsShown list={list} optionsPath={reviewAlertRuleResource.filters.client.optionsPath} />
          <Text size="sm" c="dimmed">
            <b>Default for New User</b> is not a person: people added to the client later join every rule that lists it, shown as “joined by
            default”.
          </Text>
          <div>
            <Button size="compact-sm" variant="light" onClick={() => list.update({ multi: { recipient: [String(DEFAULT_RECIPIENT_ID)] } })}>
              Defaults for new users
            </Button>
          </div>
        </Stack>
      )}
      rowActions={(row: ReviewAlertRule, list) => (
        <>
          <DuplicateReviewRuleAction row={row} list={list} />
          <SendTestAction row={row} />
        </>
      )}
    />
  );
}
