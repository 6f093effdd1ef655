import { ALERT_EVENT_REASON_LABELS, type SurveyAlertEvent, surveyAlertEventResource } from '@admin/shared/resources/survey-alert-events';
import { Stack, Text } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { FieldGrid } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { EventActions } from './survey-alerts-unsent-actions.tsx';
import { ResendFiltered } from './survey-alerts-unsent-bulk.tsx';

const reasonText = (r: SurveyAlertEvent) =>
  r.reason === null ? null : (ALERT_EVENT_REASON_LABELS[r.reason as keyof typeof ALERT_EVENT_REASON_LABELS] ?? r.reason);
// Times in the client's zone, named, with the viewer's own on hover (apps/web/src/components/data-table/cells.tsx).
const at = (v: string | null, r: SurveyAlertEvent) => (v === null ? null : <DateTimeCell value={v} zone={r.client_timezone} />);
const cells = {
  created_at: (r: SurveyAlertEvent) => at(r.created_at, r),
  last_attempt_at: (r: SurveyAlertEvent) => at(r.last_attempt_at, r),
  next_retry_at: (r: SurveyAlertEvent) => at(r.next_retry_at, r),
};

/** One alert: what it was about, why it did not arrive, and what can be done. */
function EventDetail({ row }: { row: SurveyAlertEvent }) {
  const when = (v: string | null) => v && formatDateTime(v, row.client_timezone);
  const fields: [string, string | null][] = [
    ['Event created', when(row.created_at)],
    ['Client', row.client_name],
    ['Location', row.location_name],
    ['Survey', row.survey_name],
    ['Score', row.score === null ? null : String(row.score)],
    ['Comment', row.comment],
    ['Rule', row.rule_name],
    ['Channel', row.channel === 'email' ? 'E-mail' : 'SMS'],
    ['Intended recipient', row.recipient === '' ? 'Nobody (the rule reached no one)' : row.recipient],
    ['Reason', reasonText(row)],
    ['Attempts', String(row.attempts)],
    ['Last attempt', when(row.last_attempt_at)],
    ['Next retry', when(row.next_retry_at)],
    ['Resent to', row.resent_to],
    ['Note', row.note],
  ];
  return (
    <Stack gap="sm">
      <FieldGrid fields={fields} />
      <Text fw={600}>What to do</Text>
      <EventActions event={row} />
    </Stack>
  );
}

/** Survey Alerts Unsent events (domain.md §6): survey alerts that did not reach their recipient, so no detractor goes unnoticed. */
export default function SurveyAlertsUnsentEventsPage() {
  return (
    <ResourcePage
      resource={surveyAlertEventResource}
      readOnly
      detail={EventDetail}
      title={(r) => `alert of rule ${r.rule_name}`}
      cells={cells}
      intro={(list) => <ResendFiltered list={list} />}
      empty="No unsent alerts match these filters."
    />
  );
}
