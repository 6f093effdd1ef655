import { surveyAlertRuleResource } from '@admin/shared/resources/survey-alert-rules';
import { AlertSettingsPage } from '../../components/alert-rules/alert-settings-page.tsx';
import { SurveyAlertRuleForm } from './survey-alert-rule-form.tsx';

/**
 * Survey Alert Settings (domain.md §7): the rules that tell a client's people when a response needs
 * attention, on the alert-rule kit's screen (apps/web/src/components/alert-rules/). Its test is
 * the alert engine's sample alert; "Edit defaults for new users" lists the rules naming Default
 * for New User (docs/decisions/044-client-users.md).
 */
export default function SurveyAlertSettingsPage() {
  return (
    <AlertSettingsPage
      resource={surveyAlertRuleResource}
      clientsOptionsPath={surveyAlertRuleResource.filters.client.optionsPath}
      form={SurveyAlertRuleForm}
      defaultNote={
        <>
          <b>Default for New User</b> is not a person: people added to the client later (Client Manager, Users) join every rule that lists
          it, shown as “joined by default”.
        </>
      }
      defaultsButton="Edit defaults for new users"
      test={{
        button: 'Test',
        title: (name) => `Test ${name}`,
        explanation: 'The rule fires on a sample response and alerts its real recipients, marked as a test.',
      }}
    />
  );
}
