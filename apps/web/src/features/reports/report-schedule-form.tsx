import {
  type PerformanceScheduleFilters,
  type ReportSchedule,
  recipientList,
  reportScheduleProblems,
  reportScheduleResource,
} from '@admin/shared';
import { useWatch } from 'react-hook-form';
import { defaultTimeZone } from '../../components/forms/time-zone-select.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';

export type ReportScheduleFormProps = ResourceFormProps<ReportSchedule> & {
  /** A new schedule's report filters (the screen's own, without its dates). */
  filters?: PerformanceScheduleFilters;
  /** A new schedule's zone: the current client's, else the browser's. */
  timezone?: string | null;
};

/**
 * Create or edit a scheduled report e-mail: its name, recipients (typed as a list), weekly on a
 * weekday or monthly on a day, the hour and the zone. The report and its filters are the
 * screen's it was scheduled from, sent once when it is created.
 */
export function ReportScheduleForm(props: ReportScheduleFormProps) {
  const record = props.record;
  const form = useResourceForm(reportScheduleResource, props, {
    initial: {
      recipients: (record?.recipients ?? []).join(', '),
      // The report is no input of this form: a new schedule's is the screen's (its rules still run).
      ...(record ? {} : { report: 'performance', timezone: props.timezone ?? defaultTimeZone() }),
    },
    check: (values) => reportScheduleProblems(values),
    toBody: (values: Partial<FormValues>) => ({
      ...bodyOf(values),
      ...(values.recipients !== undefined ? { recipients: recipientList(values.recipients) } : {}),
      ...(record ? {} : { report: 'performance', filters: props.filters ?? {} }),
    }),
  });
  const frequency = useWatch({ control: form.form.control, name: 'frequency' });
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <Field form={form} name="recipients" description="Up to 20 e-mail addresses, separated by commas" required />
      <FieldRow form={form} names={['frequency', frequency === 'monthly' ? 'day_of_month' : 'weekday']} />
      <FieldRow form={form} names={['hour', 'timezone']} />
    </ResourceFormShell>
  );
}
