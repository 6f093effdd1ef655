import { surveyResource } from '@admin/shared/resources/surveys';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { DuplicateAction, SendTestAction } from './survey-actions.tsx';
import { SurveyForm } from './survey-form.tsx';
import { PreviewAction } from './survey-preview.tsx';

/**
 * Surveys (docs/screens.md): the current client's survey definitions, the builder (General,
 * Questions, Messaging, Rules), Preview (e-mail, SMS, landing page), a test invitation to one e-mail or phone, and Duplicate.
 */
export default function SurveysPage() {
  return (
    <ResourcePage
      resource={surveyResource}
      form={SurveyForm}
      panelSize="lg"
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
