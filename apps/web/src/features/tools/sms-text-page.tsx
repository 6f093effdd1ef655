import {
  checkSmsTemplateBody,
  SMS_ENCODING_LABELS,
  SMS_OPT_OUT_FOOTER,
  SMS_TOKENS,
  type SmsTemplate,
  smsTemplateResource,
} from '@admin/shared/resources/sms-templates';
import { Badge, Button, Group, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type BaseSyntheticEvent, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { DuplicateMenu } from '../../components/duplicate-menu.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { GlobalDefaultField, GlobalDefaultNote } from '../../components/resource/global-default.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { api } from '../../lib/http.ts';
import { SmsCounter } from './sms-counter.tsx';
import { insertAt } from './sms-insert.ts';
import { SmsOptOutsPanel } from './sms-opt-outs-panel.tsx';
import { SendTestAction } from './sms-send-test.tsx';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Create or edit an SMS template: the message with its live counter (characters, encoding,
 * segments, warnings) and the compliance rules of its purpose checked as it is typed; a save with
 * a compliance problem is held back with the message on the field, as the server would answer.
 */
function SmsTemplateForm(props: ResourceFormProps<SmsTemplate>) {
  const form = useResourceForm(smsTemplateResource, props);
  const [body, purpose] = useWatch({ control: form.form.control, name: ['body', 'purpose'] });
  const check = checkSmsTemplateBody(text(purpose), text(body).trim());
  const record = props.record;

  const message = useRef<HTMLDivElement>(null);
  // At the message's caret (or over its selection). A message not yet clicked into has its caret
  // at the end: setting a textarea's value puts it there, so an insert then appends.
  const insert = (addition: string) => {
    const textarea = message.current?.querySelector('textarea');
    const now = text(form.form.getValues('body'));
    const at = textarea ? { start: textarea.selectionStart, end: textarea.selectionEnd } : { start: now.length, end: now.length };
    const next = insertAt(now, addition, at);
    form.form.setValue('body', next.text, { shouldDirty: true, shouldValidate: true });
    // Back to the message with the caret after the insert, so typing goes on where it was.
    if (textarea) {
      textarea.focus();
      textarea.setSelectionRange(next.caret, next.caret);
    }
  };
  const submit = (event?: BaseSyntheticEvent) => {
    const [problem] = check.errors;
    if (problem) {
      event?.preventDefault();
      form.form.setError('body', { type: 'compliance', message: problem }, { shouldFocus: true });
      return Promise.resolve();
    }
    return form.submit(event);
  };

  return (
    <ResourceFormShell form={{ ...form, submit }}>
      <GlobalDefaultNote form={form} record={record} what="template" />
      <Field form={form} name="name" />
      <FieldRow form={form} names={['purpose', 'language']} />
      <div ref={message}>
        <Field form={form} name="body" />
      </div>
      <Group gap={6} aria-label="Insert into the message" role="group">
        {SMS_TOKENS.map((token) => (
          <Button key={token} size="compact-xs" variant="light" onClick={() => insert(token)}>
            {token}
          </Button>
        ))}
        <Button size="compact-xs" variant="light" onClick={() => insert(SMS_OPT_OUT_FOOTER)}>
          {SMS_OPT_OUT_FOOTER}
        </Button>
      </Group>
      <SmsCounter check={check} id="sms-counter" shownOnField={form.error('body')} />
      <GlobalDefaultField form={form} record={record} />
    </ResourceFormShell>
  );
}

/** Duplicate: a copy of the same kind; a global default can also be copied to the current client to adapt it. */
function DuplicateAction({ row, list }: { row: SmsTemplate; list: ResourceList<SmsTemplate> }) {
  const duplicate = async (global?: boolean) => {
    const { data } = await api.post<{ data: SmsTemplate }>(
      `${smsTemplateResource.path}/${row.id}/duplicate`,
      global === undefined ? {} : { global },
    );
    notifications.show({ color: 'green', message: `Duplicated as ${data.name}` });
    await list.refresh();
  };
  const items =
    row.client_id !== null
      ? [{ label: 'Duplicate', onClick: () => duplicate() }]
      : [
          { label: `Copy for ${list.currentClient?.name ?? 'this client'}`, onClick: () => duplicate(false) },
          { label: 'Copy as a global default', onClick: () => duplicate(true) },
        ];
  return <DuplicateMenu name={row.name} items={items} />;
}

/**
 * SMS Text (docs/screens.md): text message templates of the current client and the global defaults,
 * with their encoding and segment cost, and a test send to one phone; and, on its own tab, the
 * phones that opted out.
 */
export default function SmsTextPage() {
  // The tab lives in the URL (`view=opt-outs`), so a link or a reload opens it; switching starts the other list afresh.
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'opt-outs' ? 'opt-outs' : 'templates';
  return (
    <Tabs value={view} onChange={(v) => setParams(v === 'opt-outs' ? { view: 'opt-outs' } : {})} keepMounted={false}>
      <Tabs.List mb="sm">
        <Tabs.Tab value="templates">Templates</Tabs.Tab>
        <Tabs.Tab value="opt-outs">Opted-out phones</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="templates">
        <SmsTemplatesList />
      </Tabs.Panel>
      <Tabs.Panel value="opt-outs">
        <SmsOptOutsPanel />
      </Tabs.Panel>
    </Tabs>
  );
}

function SmsTemplatesList() {
  return (
    <ResourcePage
      resource={smsTemplateResource}
      form={SmsTemplateForm}
      panelSize="lg"
      cells={{
        client_name: (r) =>
          r.client_id === null ? (
            <Badge variant="light" color="grape">
              Global default
            </Badge>
          ) : (
            r.client_name
          ),
        encoding: (r) => (
          <Badge variant="light" color={r.encoding === 'ucs2' ? 'orange' : 'gray'}>
            {SMS_ENCODING_LABELS[r.encoding]}
          </Badge>
        ),
        has_opt_out: (r) => (
          <Text size="sm" c={r.has_opt_out ? undefined : 'dimmed'}>
            {r.has_opt_out ? 'Yes' : 'No'}
          </Text>
        ),
      }}
      rowActions={(row, list) => (
        <>
          <DuplicateAction row={row} list={list} />
          <SendTestAction row={row} />
        </>
      )}
    />
  );
}
