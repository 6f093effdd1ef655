import { SELECTED_ALL } from '@admin/shared/constants';
import { type Location, locationResource } from '@admin/shared/resources/locations';
import { Button, CopyButton, Text } from '@mantine/core';
import { useRemoteOptions } from '../../components/filters/remote-multi-filter.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { LocationForm } from './location-form.tsx';

const clientFilter = locationResource.filters.client;

/** Whose locations the table shows: the current client's, the clients chosen in the filter, or all. */
function ClientsShown({ list }: { list: ResourceList<Location> }) {
  const chosen = (list.params.multi.client ?? []).filter((c) => c !== '');
  const { options } = useRemoteOptions(clientFilter.optionsPath, '', chosen);
  if (chosen.includes(SELECTED_ALL)) {
    return (
      <Text size="sm" c="dimmed">
        Clients: <b>all clients</b>
      </Text>
    );
  }
  if (chosen.length > 0) {
    return (
      <Text size="sm" c="dimmed">
        Clients: <b>{chosen.map((id) => options.find((o) => o.value === id)?.label ?? `#${id}`).join(', ')}</b>
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      Client: <b>{list.currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
    </Text>
  );
}

/** Locations (the `/api/endpoints` collection): the current client's, or the clients chosen in the filter. */
export default function LocationsPage() {
  return (
    <ResourcePage
      resource={locationResource}
      form={LocationForm}
      title={(l) => l.locationname}
      panelSize="lg"
      intro={(list) => <ClientsShown list={list} />}
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
