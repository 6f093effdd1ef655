import { type PerformanceScheduleFilters, type ReportSchedule, scheduleText } from '@admin/shared';
import { Anchor, Button, Loader, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/http.ts';
import { useSession } from '../../lib/session-store.ts';
import type { ReportFilters } from './performance-query.ts';
import { ReportScheduleForm } from './report-schedule-form.tsx';

export const SCHEDULED_REPORTS_PATH = '/admin/reports/scheduled-reports';

/** The screen's filters as a schedule keeps them: everything but the dates (each send has its period). */
export function scheduleFiltersOf(f: ReportFilters): PerformanceScheduleFilters {
  return {
    clients: f.clients.map(Number),
    locations: f.locations,
    surveys: f.surveys.map(Number),
    personnel: f.personnel.map(Number),
    groupBy: f.groupBy,
    channel: f.channel,
  };
}

/** The current client's zone, the default of a new schedule: null when there is none or it could not be read. */
function useClientZone(): { zone: string | null; ready: boolean } {
  const clientId = useSession((s) => s.currentClient?.id ?? null);
  const client = useQuery({
    queryKey: ['client', clientId],
    queryFn: ({ signal }) => api.get<{ data: { timezone: string } }>(`/api/clients/${clientId}`, { signal }),
    enabled: clientId !== null,
  });
  return { zone: client.data?.data.timezone ?? null, ready: clientId === null || !client.isPending };
}

/**
 * **Schedule e-mail** on the Performance Report: a dialog to e-mail this report, with the
 * filters on screen, weekly or monthly to a list of addresses; the schedules are in Scheduled reports.
 */
export function ScheduleReportButton({ filters }: { filters: ReportFilters }) {
  const [open, setOpen] = useState(false);
  const { zone, ready } = useClientZone();
  const saved = (s: ReportSchedule) => {
    setOpen(false);
    notifications.show({
      color: 'green',
      message: (
        <Text size="sm">
          Scheduled {s.name}: {scheduleText(s)}.{' '}
          <Anchor component={Link} to={SCHEDULED_REPORTS_PATH} size="sm">
            Scheduled reports
          </Anchor>
        </Text>
      ),
    });
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Schedule e-mail
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Schedule this report by e-mail" size="lg">
        <Text size="sm" c="dimmed" mb="sm">
          The report is sent with these filters as a CSV attachment; each e-mail covers the last 7 days (weekly) or the last calendar month
          (monthly), in the chosen time zone.
        </Text>
        {!ready && <Loader size="sm" aria-label="Loading the client's time zone" />}
        {open && ready && (
          <ReportScheduleForm
            record={null}
            filters={scheduleFiltersOf(filters)}
            timezone={zone}
            onSaved={saved}
            onCancel={() => setOpen(false)}
          />
        )}
      </Modal>
    </>
  );
}
