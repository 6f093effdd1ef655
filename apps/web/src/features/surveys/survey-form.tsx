import { SMS_TEMPLATE_OPTIONS_PATH } from '@admin/shared/resources/sms-templates';
import { type SurveySettings, surveySettingsResource } from '@admin/shared/resources/survey-settings';
import { checkSurvey, EMAIL_TOKENS, SURVEY_REVIEW_SITE_OPTIONS, type Survey, surveyResource } from '@admin/shared/resources/surveys';
import { SURVEY_TYPES, type SurveyQuestion, type SurveyType } from '@admin/shared/surveys/questions';
import { Alert, Button, Group, MultiSelect, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type BaseSyntheticEvent, useEffect, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { RemoteMultiSelect } from '../../components/filters/remote-multi-select.tsx';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { errorsByTab, TabErrorLabel } from '../../components/forms/tab-errors.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { api } from '../../lib/http.ts';
import { useSession } from '../../lib/session-store.ts';
import { ReviewGatingWarning, reviewSitesHint } from './review-gating.tsx';
import { QuestionsEditor, starterQuestions } from './survey-questions.tsx';

const LOCATIONS_PATH = '/api/endpoints/options';
const NUMBERS = [
  'sms_template_id',
  'send_delay_hours',
  'reminder_count',
  'reminder_interval_days',
  'link_expires_days',
  'over_survey_days',
  'review_invite_threshold',
] as const;
const TABS = {
  general: ['name', 'type', 'language', 'channel', 'location_ids'],
  questions: ['questions'],
  messaging: ['email_subject', 'email_body', 'sms_template_id', 'sender_name', 'reply_to'],
  rules: [
    'send_delay_hours',
    'reminder_count',
    'reminder_interval_days',
    'link_expires_days',
    'over_survey_days',
    'review_invite_mode',
    'review_invite_threshold',
    'review_sites',
    'testimonial_consent_text',
  ],
} as const;
type Tab = keyof typeof TABS;
const TAB_ORDER = Object.keys(TABS) as Tab[];

const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const asType = (value: unknown): SurveyType | null => ((SURVEY_TYPES as readonly unknown[]).includes(value) ? (value as SurveyType) : null);

/** The body as the API takes it: numbers as numbers (empty = none), the questions as edited. */
function toBody(values: Partial<FormValues>, questions: SurveyQuestion[]): Record<string, unknown> {
  const body = bodyOf(values);
  for (const key of NUMBERS) {
    const v = body[key];
    if (typeof v === 'string') body[key] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  // A custom survey has no key metric (a type changed to custom leaves none marked).
  const custom = (values.type ?? '') === 'custom';
  return { ...body, questions: custom ? questions.map((q) => ({ ...q, is_key_metric: false })) : questions };
}

/**
 * The Survey Admin settings of a survey's client, which a blank Reply-to and Over-survey
 * protection inherit (docs/decisions/027-surveys-inherit-survey-admin.md).
 */
function useClientSettings(clientId: number | undefined) {
  const settings = useQuery({
    queryKey: ['surveys', 'client-settings', clientId],
    queryFn: () => api.get<{ data: SurveySettings }>(`${surveySettingsResource.path}/${clientId}`),
    enabled: clientId !== undefined,
  });
  return settings.data?.data;
}

/** What a blank inheriting field means, as its description. */
const inherited = (value: string | number | null | undefined, unit = '') =>
  value === undefined ? undefined : value === null ? 'Blank: none (Survey Admin sets none)' : `Blank: Survey Admin's ${value}${unit}`;

/**
 * The survey builder (docs/screens.md, Surveys): General, Questions, Messaging and Rules in tabs,
 * with the definition's rules per field and `checkSurvey` (channel-dependent fields, the e-mail's
 * links, the threshold, the question list) run before a save as the server runs it; a tab with a
 * problem is marked and opened.
 */
export function SurveyForm(props: ResourceFormProps<Survey>) {
  const record = props.record;
  const currentClient = useSession((s) => s.currentClient);
  const clientId = record?.client_id ?? currentClient?.id;
  // Another client's survey (the Clients filter shows it): its locations and templates are that client's.
  const otherClient = record !== null && record !== undefined && currentClient !== null && record.client_id !== currentClient.id;
  const settings = useClientSettings(clientId);
  // The template options are the current client's and the global defaults, so another client's own
  // template is named by the record itself.
  const otherClientTemplate =
    otherClient && record.sms_template_id !== null
      ? { [String(record.sms_template_id)]: record.sms_template_name ?? `${record.client_name ?? 'Another client'}'s template` }
      : undefined;
  const [questions, setQuestions] = useState<SurveyQuestion[]>(record?.questions ?? starterQuestions('nps'));
  const [tab, setTab] = useState<Tab>('general');
  const form = useResourceForm(surveyResource, props, {
    // `questions` is the editor's, kept outside the form; named here so its errors (the check's
    // and the server's) are the form's, shown beside the editor and counted on its tab.
    initial: { ...(record ? {} : { location_ids: [] }), questions: [] },
    toBody: (values) => toBody(values, questions),
    // The checks across fields run with the rules, so one submit shows every problem on every tab.
    check: (values) =>
      checkSurvey({
        type: text(values.type),
        channel: text(values.channel),
        email_subject: text(values.email_subject),
        email_body: text(values.email_body),
        sms_template_id: text(values.sms_template_id),
        review_invite_mode: text(values.review_invite_mode),
        review_invite_threshold: text(values.review_invite_threshold),
        review_sites: list(values.review_sites),
        questions: asType(values.type) === 'custom' ? questions.map((q) => ({ ...q, is_key_metric: false })) : questions,
      }),
  });
  const { control, getFieldState, setValue } = form.form;
  // A new survey's sender name starts as its client's from name.
  const fromName = settings?.from_name;
  useEffect(() => {
    if (!record && fromName && !getFieldState('sender_name').isDirty) setValue('sender_name', fromName);
  }, [record, fromName, getFieldState, setValue]);
  const [type, channel, mode] = useWatch({ control, name: ['type', 'channel', 'review_invite_mode'] });

  const counts = errorsByTab<Tab>(form.form.formState.errors, TABS, 'general');

  // After a submit (the rules, the checks, then the server's answer), the tab shown has a problem
  // if any has: the first tab with one is opened unless the one shown has its own.
  const submit = async (event?: BaseSyntheticEvent) => {
    await form.submit(event);
    const flagged = TAB_ORDER.filter((t) => TABS[t].some((f) => getFieldState(f).invalid));
    const [first] = flagged;
    if (first && !flagged.includes(tab)) setTab(first);
  };

  const tabLabel = (t: Tab, label: string) => <TabErrorLabel label={label} count={counts[t]} />;

  return (
    <ResourceFormShell form={{ ...form, submit }}>
      <Tabs value={tab} onChange={(v) => setTab((v as Tab | null) ?? 'general')} keepMounted>
        <Tabs.List grow>
          <Tabs.Tab value="general">{tabLabel('general', 'General')}</Tabs.Tab>
          <Tabs.Tab value="questions">{tabLabel('questions', 'Questions')}</Tabs.Tab>
          <Tabs.Tab value="messaging">{tabLabel('messaging', 'Messaging')}</Tabs.Tab>
          <Tabs.Tab value="rules">{tabLabel('rules', 'Rules')}</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="general" pt="sm">
          <Stack gap="sm">
            <Field form={form} name="name" />
            <FieldRow form={form} names={['type', 'language']} />
            <Field form={form} name="channel" />
            {otherClient ? (
              <Alert color="blue" variant="light" role="note">
                This survey is {record?.client_name ?? 'another client'}'s ({record?.location_count ?? 0} locations): switch to that client
                to change its locations or SMS template.
              </Alert>
            ) : (
              <Controller
                control={control}
                name="location_ids"
                render={({ field }) => (
                  <RemoteMultiSelect
                    label={surveyResource.labels.location_ids ?? 'Locations'}
                    required
                    path={LOCATIONS_PATH}
                    value={list(field.value)}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={form.error('location_ids')}
                  />
                )}
              />
            )}
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="questions" pt="sm">
          <QuestionsEditor
            questions={questions}
            onChange={(next) => {
              setQuestions(next);
              form.form.clearErrors('questions');
            }}
            surveyType={asType(type)}
            errors={form.veeErrors.collect('questions')}
          />
        </Tabs.Panel>

        <Tabs.Panel value="messaging" pt="sm">
          <Stack gap="sm">
            <Field form={form} name="email_subject" />
            <Field
              form={form}
              name="email_body"
              description={`Must contain {survey_link} and {unsubscribe_link}; may use ${EMAIL_TOKENS.slice(0, 3).join(' ')}`}
            />
            <Controller
              control={control}
              name="sms_template_id"
              render={({ field }) => (
                <RemoteSelect
                  label={surveyResource.fields.sms_template_id.label}
                  description={channel === 'email' ? 'Only used when the channel sends SMS' : undefined}
                  path={SMS_TEMPLATE_OPTIONS_PATH}
                  disabled={otherClient}
                  value={text(field.value) || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  error={form.error('sms_template_id')}
                  clearable
                  nothingFound="No SMS templates: add one on SMS Text"
                  labels={otherClientTemplate}
                />
              )}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field form={form} name="sender_name" />
              <Field form={form} name="reply_to" description={inherited(settings?.reply_to)} />
            </SimpleGrid>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="rules" pt="sm">
          <Stack gap="sm">
            <FieldRow form={form} names={['send_delay_hours', 'link_expires_days']} />
            <FieldRow form={form} names={['reminder_count', 'reminder_interval_days']} />
            <Field form={form} name="over_survey_days" description={inherited(settings?.over_survey_days, ' days')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field form={form} name="review_invite_mode" />
              {/* Required in threshold mode only (surveyRuleErrors): marked so while it shows. */}
              {mode === 'threshold' && <Field form={form} name="review_invite_threshold" required />}
            </SimpleGrid>
            {mode === 'threshold' && <ReviewGatingWarning />}
            <Controller
              control={control}
              name="review_sites"
              render={({ field }) => (
                <MultiSelect
                  label={surveyResource.labels.review_sites}
                  description={reviewSitesHint(mode)}
                  data={SURVEY_REVIEW_SITE_OPTIONS}
                  value={list(field.value)}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  maxValues={4}
                  error={form.error('review_sites')}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            <Field form={form} name="testimonial_consent_text" />
          </Stack>
        </Tabs.Panel>
      </Tabs>
      {!record && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            A new survey starts with the questions of its type.
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => setQuestions(starterQuestions(asType(type) ?? 'custom'))}>
            Reset questions for this type
          </Button>
        </Group>
      )}
    </ResourceFormShell>
  );
}
