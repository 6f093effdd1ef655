import {
  answerText,
  NPS_CLASS_LABELS,
  RESPONSE_EXCLUSION_LABELS,
  responseExclusionSchema,
  type SurveyResponse,
  type SurveyResponseDetail,
  surveyResponseResource,
} from '@admin/shared/resources/survey-responses';
import { Badge, Button, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';
import { ResponseReassign } from './response-reassign.tsx';

const CLASS_COLORS = { promoter: 'green', passive: 'yellow', detractor: 'red' } as const;

const cells = {
  submitted_at: (r: SurveyResponse) => <DateTimeCell value={r.submitted_at} zone={r.client_timezone} />,
  // A Send test's answer, never counted in a figure, is marked beside the name (as Survey
  // Processing marks its invitation), so the table and the phone's card both show it.
  customer: (r: SurveyResponse) => (
    <span>
      {r.customer}
      {r.test && (
        <Badge size="sm" color="grape" variant="light" ml={6}>
          Test
        </Badge>
      )}
    </span>
  ),
  nps_class: (r: SurveyResponse) =>
    r.nps_class ? (
      <Badge color={CLASS_COLORS[r.nps_class]} variant="light">
        {NPS_CLASS_LABELS[r.nps_class]}
      </Badge>
    ) : null,
  comment: (r: SurveyResponse) => (
    <Text size="sm" lineClamp={2} maw={320}>
      {r.comment ?? ''}
    </Text>
  ),
};

/** Exclude from (or include again in) reporting, with the reason the server requires. */
function ExclusionForm({ detail }: { detail: SurveyResponseDetail }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const excluding = !detail.excluded;
  const submit = async () => {
    // The server's own rule and message, so the field is named as it is labelled here.
    const checked = responseExclusionSchema.shape.reason.safeParse(reason);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? null);
    setBusy(true);
    try {
      await api.post(`${surveyResponseResource.path}/${detail.id}/exclusion`, { excluded: excluding, reason });
      notifications.show({ color: 'green', message: excluding ? 'Response excluded from reports' : 'Response included in reports' });
      setReason('');
      setError(null);
      await queryClient.invalidateQueries();
    } catch (e) {
      setError(e instanceof ApiError ? (e.fieldErrors.reason?.[0] ?? e.message) : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Textarea
        label={RESPONSE_EXCLUSION_LABELS.reason}
        description={excluding ? 'Why this response is left out of reports' : 'Why this response counts in reports again'}
        required
        maxLength={500}
        value={reason}
        error={error}
        onChange={(e) => setReason(e.currentTarget.value)}
      />
      <Button onClick={() => void submit()} loading={busy} color={excluding ? 'red' : 'blue'} variant="light">
        {excluding ? 'Exclude' : 'Include'}
      </Button>
    </Stack>
  );
}

/** One response: its fields, every answer as asked, Reassign personnel / location and Exclude / Include. */
function ResponseDetail({ row }: { row: SurveyResponse }) {
  const { data: d, states } = useResourceDetail<SurveyResponseDetail>(surveyResponseResource, row.id, {
    deps: [row.excluded, row.personnel_id, row.location_id],
  });
  // The detail once loaded: it is fresh after a reassign even before the list reloads.
  const r: SurveyResponse = d ?? row;
  const fields: [string, string][] = [
    ['Submitted at', formatDateTime(r.submitted_at, r.client_timezone)],
    ['Customer', r.customer],
    ['Client', r.client_name ?? '—'],
    ['Location', r.location_name ?? '—'],
    ['Survey', r.survey_name ?? '—'],
    ['Personnel', r.personnel_name ?? '—'],
    ['Key score', r.key_score === null ? '—' : String(r.key_score)],
    ['Class', r.nps_class ? NPS_CLASS_LABELS[r.nps_class] : '—'],
    ['Testimonial consent', r.testimonial_consent ? 'Yes' : 'No'],
    ['Excluded from reports', r.excluded ? `Yes — ${r.excluded_reason ?? ''}` : 'No'],
    ['Test response', r.test ? 'Yes — an answer to a Send test, never counted in figures' : 'No'],
  ];
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="xs">
        {fields.map(([label, value]) => (
          <Labelled key={label} label={label}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Labelled>
        ))}
      </SimpleGrid>
      {states}
      {d && (
        <>
          <Text fw={600}>Answers</Text>
          {d.answers.map((a) => (
            <Labelled key={a.question_id} label={a.text}>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {answerText(a.value)}
              </Text>
            </Labelled>
          ))}
          <ResponseReassign detail={d} />
          <Text fw={600}>Reporting</Text>
          <ExclusionForm detail={d} />
        </>
      )}
    </Stack>
  );
}

/** Survey Manager (docs/screens.md): completed responses, read-mostly; Reassign and Exclude / Include in the detail. */
export default function SurveyManagerPage() {
  return (
    <ResourcePage
      resource={surveyResponseResource}
      readOnly
      detail={ResponseDetail}
      title={(r) => `response of ${r.customer}`}
      cells={cells}
      intro={false}
      empty="No responses match these filters."
    />
  );
}
