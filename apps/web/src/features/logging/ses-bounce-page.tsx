import {
  type EmailSuppression,
  emailSuppressionResource,
  SUPPRESSION_REASON_LABELS,
  suppressionDescription,
} from '@admin/shared/resources/email-suppressions';
import { bounceText } from '@admin/shared/resources/ses-events';
import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { ManualSuppressionDialog, ReleaseDialog } from './ses-bounce-dialogs.tsx';
import { sesLogsLink } from './ses-links.ts';

// An address spans clients: its times are shown in UTC, named (as the CSV writes them).
const UTC = 'UTC';

const cells = {
  suppressed: (r: EmailSuppression) => (
    <Badge color={r.suppressed ? 'red' : 'gray'} variant="light">
      {r.suppressed ? 'Yes' : 'No'}
    </Badge>
  ),
  first_seen_at: (r: EmailSuppression) => <DateTimeCell value={r.first_seen_at} zone={UTC} />,
  last_seen_at: (r: EmailSuppression) => <DateTimeCell value={r.last_seen_at} zone={UTC} />,
};

/** One address: every column's value, the description in full and its release history. */
function AddressDetail({ row }: { row: EmailSuppression }) {
  const fields: [string, string][] = [
    ['Suppressed', row.suppressed ? 'Yes' : 'No'],
    ['Reason', SUPPRESSION_REASON_LABELS[row.reason]],
    ['Last bounce', bounceText(row.last_bounce_type, row.last_bounce_subtype) ?? '—'],
    ['Last diagnostic code', row.last_diagnostic_code ?? '—'],
    ['Bounce count (30d / all)', `${row.bounce_count_30d} / ${row.bounce_count}`],
    ['Complaint count', String(row.complaint_count)],
    ['First seen', formatDateTime(row.first_seen_at, UTC)],
    ['Last seen', formatDateTime(row.last_seen_at, UTC)],
    ['Last template', row.last_template ?? '—'],
    ['Clients affected', row.clients.join(', ') || '—'],
    ['Note', row.note ?? '—'],
  ];
  return (
    <Stack gap="sm">
      <Anchor component={Link} to={sesLogsLink(row.email)}>
        View events in SES Logs
      </Anchor>
      <Labelled label="Description">
        <Text size="sm">{suppressionDescription(row) ?? '—'}</Text>
      </Labelled>
      <SimpleGrid cols={2} spacing="xs">
        {fields.map(([label, value]) => (
          <Labelled key={label} label={label}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Labelled>
        ))}
      </SimpleGrid>
      {row.released_at && (
        <Labelled label="Last released">
          <Text size="sm">
            {formatDateTime(row.released_at, UTC)} by {row.released_by_name ?? 'a removed user'}: {row.release_reason}
          </Text>
        </Labelled>
      )}
    </Stack>
  );
}

/**
 * The suppression and bounce view (domain.md §25): one row per address. Release from suppression
 * (confirmed, with a reason) and Add manual suppression; View events opens SES Logs for the address.
 */
export default function SesBouncePage() {
  const [releasing, setReleasing] = useState<EmailSuppression | null>(null);
  const [adding, setAdding] = useState(false);
  // Nothing listed with no filter set means nothing ever bounced; with one, only that nothing matches.
  const [params] = useSearchParams();
  const filtered = [...params.keys()].some((k) => k !== 'sort' && k !== 'order' && k !== 'perPage');
  return (
    <ResourcePage
      resource={emailSuppressionResource}
      readOnly
      detail={AddressDetail}
      title={(r) => `address ${r.email}`}
      cells={cells}
      intro={(list) => (
        <>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              The sender skips every suppressed address.
            </Text>
            <Button size="sm" onClick={() => setAdding(true)}>
              Add manual suppression
            </Button>
          </Group>
          {adding && <ManualSuppressionDialog onClose={() => setAdding(false)} onAdded={list.refresh} />}
          {releasing && <ReleaseDialog row={releasing} onClose={() => setReleasing(null)} onReleased={list.refresh} />}
        </>
      )}
      rowActions={(r) => (
        <Group gap={4} wrap="nowrap">
          <Button component={Link} to={sesLogsLink(r.email)} size="compact-xs" variant="subtle" aria-label={`View events of ${r.email}`}>
            View events
          </Button>
          {r.suppressed && (
            <Button size="compact-xs" variant="subtle" color="red" aria-label={`Release ${r.email}`} onClick={() => setReleasing(r)}>
              Release
            </Button>
          )}
        </Group>
      )}
      empty={filtered ? 'No address matches these filters.' : 'No address has bounced or been suppressed.'}
    />
  );
}
