import {
  KEY_METRIC_TYPE,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type QuestionType,
  type SurveyQuestion,
  type SurveyType,
} from '@admin/shared/surveys/questions';
import { ActionIcon, Alert, Button, Card, Checkbox, Group, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';

const TYPE_OPTIONS = QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }));
const isChoice = (type: QuestionType) => type === 'single_choice' || type === 'multi_choice';

/** The questions a new survey of this type starts with: its key metric (if any) and a comment. */
export function starterQuestions(type: SurveyType): SurveyQuestion[] {
  const key = KEY_METRIC_TYPE[type];
  const comment: SurveyQuestion = {
    id: 2,
    type: 'text',
    text: 'What is the main reason for your score?',
    options: [],
    required: false,
    is_key_metric: false,
  };
  if (key === 'nps_0_10') {
    return [
      { id: 1, type: key, text: 'How likely are you to recommend us to a friend?', options: [], required: true, is_key_metric: true },
      comment,
    ];
  }
  if (key === 'rating_1_5') {
    return [
      { id: 1, type: key, text: 'How satisfied were you with your visit?', options: [], required: true, is_key_metric: true },
      comment,
    ];
  }
  return [{ ...comment, id: 1, text: 'Tell us about your visit' }];
}

/**
 * The Questions tab: questions added, reordered (up/down), removed, the key metric marked (one at
 * most: marking one unmarks the others) and the options of choice questions. The list as a whole is
 * checked with the survey (`checkSurvey`), its messages shown above.
 */
export function QuestionsEditor({
  questions,
  onChange,
  surveyType,
  errors,
}: {
  questions: SurveyQuestion[];
  onChange(questions: SurveyQuestion[]): void;
  surveyType: SurveyType | null;
  errors: string[];
}) {
  const hasKeyMetric = surveyType !== null && KEY_METRIC_TYPE[surveyType] !== null;
  const update = (index: number, change: Partial<SurveyQuestion>) =>
    onChange(
      questions.map((q, i) => {
        if (i === index) return { ...q, ...change };
        // One key metric: marking this one unmarks the others.
        return change.is_key_metric === true ? { ...q, is_key_metric: false } : q;
      }),
    );
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    onChange(next);
  };
  const add = () => {
    const id = Math.max(0, ...questions.map((q) => q.id)) + 1;
    onChange([...questions, { id, type: 'text', text: '', options: [], required: false, is_key_metric: false }]);
  };

  return (
    <Stack gap="sm">
      {errors.length > 0 && (
        <Alert color="red" variant="light" role="alert" title="Questions">
          {errors.map((e) => (
            <Text key={e} size="sm">
              {e}
            </Text>
          ))}
        </Alert>
      )}
      {hasKeyMetric && surveyType && (
        <Text size="sm" c="dimmed">
          Mark one “{QUESTION_TYPE_LABELS[KEY_METRIC_TYPE[surveyType] ?? 'nps_0_10']}” question as the key metric: its answer is the
          survey’s score.
        </Text>
      )}
      {questions.map((q, i) => {
        const n = i + 1;
        return (
          <Card key={q.id} withBorder padding="sm" role="group" aria-label={`Question ${n}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} size="sm">
                  Question {n}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Move question ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move question ${n} down`}
                    disabled={i === questions.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove question ${n}`}
                    onClick={() => onChange(questions.filter((_, j) => j !== i))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </Group>
              <Select
                label={`Question ${n} type`}
                data={TYPE_OPTIONS}
                value={q.type}
                allowDeselect={false}
                onChange={(v) => {
                  const type = (QUESTION_TYPES as readonly string[]).includes(v ?? '') ? (v as QuestionType) : q.type;
                  update(i, { type, options: isChoice(type) ? q.options : [] });
                }}
                comboboxProps={{ withinPortal: true }}
              />
              <TextInput
                label={`Question ${n} text`}
                required
                maxLength={500}
                value={q.text}
                onChange={(e) => update(i, { text: e.currentTarget.value })}
              />
              {isChoice(q.type) && (
                <TagsInput
                  label={`Question ${n} options`}
                  description="At least two; press Enter after each"
                  maxTags={20}
                  value={q.options}
                  onChange={(options) => update(i, { options: options.map((o) => o.slice(0, 100)) })}
                />
              )}
              <Group gap="lg">
                <Checkbox label="Required" checked={q.required} onChange={(e) => update(i, { required: e.currentTarget.checked })} />
                {hasKeyMetric && (
                  <Checkbox
                    label="Key metric"
                    checked={q.is_key_metric}
                    onChange={(e) => update(i, { is_key_metric: e.currentTarget.checked })}
                  />
                )}
              </Group>
            </Stack>
          </Card>
        );
      })}
      <Group>
        <Button variant="light" onClick={add} disabled={questions.length >= 30}>
          Add question
        </Button>
      </Group>
    </Stack>
  );
}
