import { locationResource } from '@admin/shared/resources/locations';
import { Button, CopyButton } from '@mantine/core';
import { ClientsShown } from '../../components/resource/clients-shown.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { LocationForm } from './location-form.tsx';

/** Locations (the `/api/endpoints` collection): the current client's, or the clients chosen in the filter. */
export default function LocationsPage() {
  return (
    <ResourcePage
      resource={locationResource}
      form={LocationForm}
      title={(l) => l.locationname}
      panelSize="lg"
      intro={(list) => <ClientsShown list={list} optionsPath={locationResource.filters.client.optionsPath} />}
      rowActions={(l) => (
        <CopyButton value={l._id}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="subtle" aria-label={`Copy endpoint id of ${l.locationname}`} onClick={copy}>
              {copied ? 'Copied' : 'Copy id'}
            </Button>
          )}
        </CopyButton>
      )}
    />
  );
}
