import { lastSendText, type ReportSchedule, reportScheduleResource } from '@admin/shared';
import { Text } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { ReportScheduleForm } from './report-schedule-form.tsx';
import { DeleteScheduleAction, SendNowAction } from './scheduled-reports-actions.tsx';

const cells = {
  // Times in the schedule's own zone, named; the viewer's own on hover.
  next_send_at: (r: ReportSchedule) => (r.next_send_at ? <DateTimeCell value={r.next_send_at} zone={r.timezone} /> : '—'),
  last_sent_at: (r: ReportSchedule) => (r.last_sent_at ? <DateTimeCell value={r.last_sent_at} zone={r.timezone} /> : '—'),
  last_status: (r: ReportSchedule) => (
    <Text size="sm" c={r.last_status === 'failed' ? 'red' : undefined}>
      {lastSendText(r)}
    </Text>
  ),
};

/**
 * Scheduled reports: the current client's report e-mails (made with **Schedule e-mail** on the
 * Performance Report), with the schedule in words, the next and last send and its outcome; Edit,
 * Pause/Resume, Send now and Delete.
 */
export default function ScheduledReportsPage() {
  return (
    <ResourcePage
      resource={reportScheduleResource}
      form={ReportScheduleForm}
      noCreate
      cells={cells}
      intro={
        <Text size="sm" c="dimmed">
          Reports e-mailed with their CSV on a schedule. To add one, open the Performance Report, choose its filters and use Schedule
          e-mail.
        </Text>
      }
      empty="No scheduled reports yet: use Schedule e-mail on the Performance Report."
      rowActions={(row, list) => (
        <>
          <SendNowAction row={row} list={list} />
          <DeleteScheduleAction row={row} list={list} />
        </>
      )}
    />
  );
}
