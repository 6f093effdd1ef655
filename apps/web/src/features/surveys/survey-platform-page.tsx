import { dataFeedResource } from '@admin/shared/resources/data-feeds';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { FeedForm } from './survey-platform-form.tsx';
import { FeedMenu, UploadAction } from './survey-platform-upload.tsx';

/**
 * Survey Platform (docs/screens.md): a client's data feeds — the feed's source, survey, location
 * and file format, its field mapping with a sample's preview, Upload CSV with Validate file (dry
 * run) and Run import, Run now for SFTP feeds, the sample template, and its runs in Survey
 * Manager Logs. Pause, Resume and Archive are the status actions.
 */
export default function SurveyPlatformPage() {
  return (
    <ResourcePage
      resource={dataFeedResource}
      form={FeedForm}
      panelSize="lg"
      intro={(list) => <ClientsShown list={list} optionsPath={dataFeedResource.filters.client.optionsPath} />}
      rowActions={(row, list) => (
        <>
          <UploadAction row={row} list={list} />
          <FeedMenu row={row} />
        </>
      )}
    />
  );
}
