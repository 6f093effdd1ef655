import { SELECTED_ALL } from '@admin/shared/constants';
import { Text } from '@mantine/core';
import { useRemoteOptions } from '../filters/remote-multi-filter.tsx';
import type { ResourceList } from './resource-page.tsx';

/**
 * Whose records a list with a Clients filter shows (`filterable-clients`): the current client's,
 * the clients chosen in the filter (named from its options), or all clients.
 */
export function ClientsShown<Row>({ list, optionsPath }: { list: ResourceList<Row>; optionsPath: string }) {
  const chosen = (list.params.multi.client ?? []).filter((c) => c !== '');
  const { options } = useRemoteOptions(optionsPath, '', chosen);
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
