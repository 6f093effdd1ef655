import type { ResourceView } from '@admin/shared';
import { Button, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError, api } from '../../lib/http.ts';

const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * One record of a resource by id, for a screen's detail panel (`GET <path>/<id>`, the read-only
 * routes' `/:id`, docs/conventions.md): the record once loaded, and `states`, what the panel shows
 * meanwhile — a loader, an error with Retry, or a note that the record no longer exists (a 404,
 * asked once: asking again will not bring it back).
 *
 * The query key starts with the screen, so the list's `refresh` reloads the detail too; `deps` are
 * the row's values that, when the list shows them changed, mean the detail changed as well.
 */
export function useResourceDetail<Detail>(
  def: Pick<ResourceView<unknown>, 'path' | 'screen' | 'noun'>,
  id: string | number,
  options?: { what?: string; deps?: readonly unknown[] },
) {
  const what = options?.what ?? def.noun;
  const query = useQuery({
    queryKey: [def.screen, 'detail', id, ...(options?.deps ?? [])],
    queryFn: async ({ signal }) => (await api.get<{ data: Detail }>(`${def.path}/${id}`, { signal })).data,
    retry: (count, error) => !notFound(error) && count < 1,
    meta: { what: `the ${what}` },
  });
  let states: ReactNode = null;
  if (query.isPending) states = <Loader size="sm" aria-label={`Loading ${what}`} />;
  else if (notFound(query.error)) states = <Text size="sm">This {what} no longer exists.</Text>;
  else if (query.error)
    states = (
      <Group gap="xs">
        <Text c="red" size="sm">
          {query.error.message}
        </Text>
        <Button size="compact-xs" variant="light" color="red" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Group>
    );
  return { data: query.data, query, states };
}
