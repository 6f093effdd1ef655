import { type SurveySettings, surveySettingsResource } from '@admin/shared/resources/survey-settings';
import { Badge, Text } from '@mantine/core';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { SurveyAdminActions } from './survey-admin-actions.tsx';
import { SurveySettingsForm } from './survey-settings-form.tsx';

/**
 * Survey Admin: every client's survey programme settings, one row per client (a client that
 * never saved any shows the platform defaults). No Create: Edit settings writes a client's own.
 */
export default function SurveyAdminPage() {
  return (
    <ResourcePage<SurveySettings>
      resource={surveySettingsResource}
      form={SurveySettingsForm}
      noCreate
      panelSize="lg"
      title={(r) => `survey settings of ${r.client_name}`}
      savedMessage={(r) => `Saved the survey settings of ${r.client_name}`}
      canChangeStatus={() => false}
      intro={
        <Text size="sm" c="dimmed">
          Every client's survey settings; clients that never saved their own use the platform defaults.
        </Text>
      }
      cells={{
        domain_verified: (r) =>
          r.sending_domain ? (
            <Badge color={r.domain_verified ? 'green' : 'gray'} variant="light">
              {r.domain_verified ? 'Yes' : 'No'}
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              No domain
            </Text>
          ),
      }}
      rowActions={(row, list) => <SurveyAdminActions row={row} refresh={list.refresh} />}
    />
  );
}
