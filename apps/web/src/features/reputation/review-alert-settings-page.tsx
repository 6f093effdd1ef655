import { reviewAlertRuleResource } from '@admin/shared/resources/review-alert-rules';
import { AlertSettingsPage } from '../../components/alert-rules/alert-settings-page.tsx';
import { ReviewAlertRuleForm } from './review-alert-rule-form.tsx';

/**
 * Review Alert Settings (domain.md §11): the rules that tell a client's people when a public review
 * arrives, on the alert-rule kit's screen as Survey Alert Settings (apps/web/src/components/alert-rules/).
 * Send test sends the rule's alert now; "Defaults for new users" lists the rules naming Default for New User.
 */
export default function ReviewAlertSettingsPage() {
  return (
    <AlertSettingsPage
      resource={reviewAlertRuleResource}
      clientsOptionsPath={reviewAlertRuleResource.filters.client.optionsPath}
      form={ReviewAlertRuleForm}
      defaultNote={
        <>
          <b>Default for New User</b> is not a person: people added to the client later join every rule that lists it, shown as “joined by
          default”.
        </>
      }
      defaultsButton="Defaults for new users"
      test={{
        button: 'Send test',
        title: (name) => `Send test of ${name}`,
        explanation: 'The rule’s alert goes now to its real recipients, about the newest review it matches, marked as a test.',
      }}
    />
  );
}
