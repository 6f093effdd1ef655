import { surveyResource } from '@admin/shared/resources/surveys';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { DuplicateAction, SendTestAction } from './survey-actions.tsx';
import { SurveyForm } from './survey-form.tsx';
import { PreviewAction } from './survey-preview.tsx';

/**
 * Surveys (docs/screens.md): the survey definitions of the current client or of the clients chosen
 * in the Clients filter, the builder (General, Questions, Messaging, Rules), Preview (e-mail, SMS,
 * landing page), a test invitation to one e-mail or phone, and Duplicate; each acts on the survey's own client.
 */
export default function SurveysPage() {
  return (
    <ResourcePage
      resource={surveyResource}
      form={SurveyForm}
      panelSize="lg"
      intro={(list) => <ClientsShown list={list} optionsPath={surveyResource.filters.client.optionsPath} />}
      rowActions={(row, list) => (
        <>
          <PreviewAction row={row} />
          <DuplicateAction row={row} list={list} />
          <SendTestAction row={row} />
        </>
      )}
    />
  );
}
