import { type Person, personnelResource } from '@admin/shared/resources/personnel';
import { Button, Code, Group, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { StatusBadge } from '../../components/status/status-kit.tsx';
import { PersonForm } from './person-form.tsx';

/** Personnel of the current client, with their locations; "Merge…" hands a person to Merge Personnel Data. */
export default function PersonnelPage() {
  const navigate = useNavigate();
  return (
    <ResourcePage
      resource={personnelResource}
      form={PersonForm}
      cells={{
        status: (r: Person) => (
          <Group gap={4} wrap="nowrap">
            <StatusBadge status={r.status} />
            {r.merged_into_id !== null && (
              <Text size="xs" c="dimmed">
                merged into #{r.merged_into_id}
              </Text>
            )}
          </Group>
        ),
      }}
      // A merge cannot be undone: a merged person's status stays archived.
      canChangeStatus={(r) => r.merged_into_id === null}
      rowActions={(r) =>
        r.merged_into_id === null && (
          <Button
            size="compact-xs"
            variant="subtle"
            aria-label={`Merge ${r.name}`}
            onClick={() => navigate(`/admin/merge-personnel?person=${r.id}`)}
          >
            Merge…
          </Button>
        )
      }
      importNote={
        <>
          <Code>locations</Code> and <Code>aliases</Code> take several values separated by <Code>;</Code>. Name a location by its endpoint
          id, its external code or its exact name.
        </>
      }
    />
  );
}
