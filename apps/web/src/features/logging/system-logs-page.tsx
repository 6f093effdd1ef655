import { entityDiff, entityText, eventText } from '@admin/shared/resources/entity-labels';
import { auditDiff } from '@admin/shared/resources/readable-diff';
import { type SystemLog, type SystemLogDetail, systemLogResource } from '@admin/shared/resources/system-logs';
import { Badge, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { DiffTable } from './diff-table.tsx';

const LEVEL_COLORS: Record<string, string> = { debug: 'gray', info: 'blue', warn: 'orange', error: 'red' };

const cells = {
  at: (r: SystemLog) => <DateTimeCell value={r.at} zone={r.client_timezone} />,
  entity: (r: SystemLog) => entityText(r.entity_type, r.entity_id),
  action: (r: SystemLog) => eventText(r.action),
  level: (r: SystemLog) => (
    <Badge color={LEVEL_COLORS[r.level]} variant="light">
      {r.level}
    </Badge>
  ),
};

/** One entry: the row's fields at once, then the before and after of an audited change from `GET /api/system-logs/{id}`. */
function LogDetail({ row }: { row: SystemLog }) {
  const { data: d, states } = useResourceDetail<SystemLogDetail>(systemLogResource, row.id, { what: 'entry' });
  const fields: [string, string][] = [
    ['Time', formatDateTime(row.at, row.client_timezone)],
    ['Level', row.level],
    ['Service', row.service],
    ['Event', eventText(row.action)],
    ['Actor', row.actor_name ?? '—'],
    ['Client', row.client_name ?? '—'],
    ['Entity', entityText(row.entity_type, row.entity_id) ?? '—'],
    ['IP', row.ip ?? '—'],
  ];
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="xs">
        {fields.map(([label, value]) => (
          <Labelled key={label} label={label}>
            {/* Long entity names and ids break rather than run into the next column on a phone. */}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Labelled>
        ))}
      </SimpleGrid>
      <Labelled label="Message">
        <Text size="sm">{row.message}</Text>
      </Labelled>
      {row.request_id && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            Request id
          </Text>
          <Code>{row.request_id}</Code>
          <Button size="compact-xs" variant="light" onClick={() => void navigator.clipboard?.writeText(row.request_id ?? '')}>
            Copy request id
          </Button>
        </Group>
      )}
      {states}
      {d && (d.before !== null || d.after !== null) && (
        <Labelled label="Changes">
          <DiffTable rows={entityDiff(d.entity_type, auditDiff(d.before, d.after), d.client_timezone)} />
        </Labelled>
      )}
    </Stack>
  );
}

/** The application and audit log, read-only (docs/screens.md, System Logs): every client's entries. */
export default function SystemLogsPage() {
  return (
    <ResourcePage
      resource={systemLogResource}
      readOnly
      detail={LogDetail}
      title={(r) => `entry ${r.id}`}
      cells={cells}
      // No current client line: the screen shows every client's entries unless the Clients filter narrows them.
      intro={false}
      empty="No log entries match these filters."
    />
  );
}
