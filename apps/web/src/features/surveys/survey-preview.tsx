import type { Survey } from '@admin/shared/resources/surveys';
import { SMS_ENCODING_LABELS, type SurveyPreview } from '@admin/shared/surveys/preview';
import { Alert, Badge, Button, Code, Drawer, Group, Loader, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { MessageFrame } from '../../components/message-frame.tsx';
import { api } from '../../lib/http.ts';

/**
 * The public page's own policy for the preview frame, put first in its head: styles inline, the
 * logo from its web address as on `/s/{token}`, no script, and the form posts nowhere.
 */
const LANDING_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action 'none'; base-uri 'none'";
const landingDocument = (html: string) =>
  html.replace(
    '<head>',
    `<head><meta http-equiv="Content-Security-Policy" content="${LANDING_CSP}"><meta name="referrer" content="no-referrer">`,
  );

/** A frame that can do nothing: `sandbox=""` (no scripts, forms, popups or same-origin access). */
function Frame({ title, doc, height }: { title: string; doc: string; height: number }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={doc}
      referrerPolicy="no-referrer"
      style={{ width: '100%', height, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, background: 'white' }}
    />
  );
}

function PreviewBody({ preview, id }: { preview: SurveyPreview; id: number }) {
  // Kept with the drawer's open state, so a list redrawn for a new width shows the same tab.
  const [tab, setTab] = useKeptState(`preview-tab:${id}`, 'email');
  const { email, sms } = preview;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Sample values: {preview.sample.first_name}, {preview.sample.location_name}, and a sample link. Nothing is sent or recorded.
      </Text>
      <Tabs value={tab} onChange={(t) => setTab(t ?? 'email')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="email">E-mail</Tabs.Tab>
          <Tabs.Tab value="sms">SMS</Tabs.Tab>
          <Tabs.Tab value="landing">Landing page</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="email" pt="sm">
          {email ? (
            <Stack gap="sm">
              <Labelled label="From">
                <Text size="sm">
                  {email.from_name} &lt;{email.from_address}&gt;
                  {email.reply_to && ` · Reply-to ${email.reply_to}`}
                </Text>
              </Labelled>
              <Labelled label="Subject">
                <Text size="sm" fw={600}>
                  {email.subject}
                </Text>
              </Labelled>
              <Labelled label="Rendered e-mail">
                <MessageFrame title="Rendered e-mail" html={email.html} height={320} remoteImages />
              </Labelled>
              <Labelled label="Text version">
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {email.text}
                </Code>
              </Labelled>
            </Stack>
          ) : (
            <Alert color="yellow" variant="light">
              {preview.email_missing}
            </Alert>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="sms" pt="sm">
          {sms ? (
            <Stack gap="sm">
              <Labelled label={`Template: ${sms.template_name}`}>
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {sms.text}
                </Code>
              </Labelled>
              <Group gap="xs" aria-label="SMS counter">
                <Badge variant="light">{sms.characters} characters</Badge>
                <Badge variant="light">{SMS_ENCODING_LABELS[sms.encoding]}</Badge>
                <Badge variant="light" color={sms.segments > 2 ? 'orange' : 'blue'}>
                  {sms.segments === 1 ? '1 segment' : `${sms.segments} segments`}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                Links count as 23 characters: they are sent as short links.
              </Text>
            </Stack>
          ) : (
            <Alert color="yellow" variant="light">
              {preview.sms_missing}
            </Alert>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="landing" pt="sm">
          <Frame title="Landing page" doc={landingDocument(preview.landing_html)} height={560} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/**
 * Preview: the invitation e-mail and SMS as they would be sent, and the public survey page the
 * link opens, with sample values (`GET /api/surveys/:id/preview`); the HTML in sandboxed frames.
 */
export function PreviewAction({ row }: { row: Survey }) {
  const [opened, setOpened] = useKeptState(`preview:${row.id}`, false);
  const [, setTab] = useKeptState(`preview-tab:${row.id}`, 'email');
  const phone = useMediaQuery('(max-width: 48em)');
  const preview = useQuery({
    queryKey: ['surveys', 'preview', row.id, row.updated_at],
    queryFn: async () => (await api.get<{ data: SurveyPreview }>(`/api/surveys/${row.id}/preview`)).data,
    enabled: opened,
    meta: { what: 'the preview' },
  });
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Preview ${row.name}`} onClick={() => setOpened(true)}>
        Preview
      </Button>
      <Drawer
        opened={opened}
        onClose={() => {
          setOpened(false);
          setTab('email');
        }}
        title={`Preview of ${row.name}`}
        position="right"
        size={phone ? '100%' : 'xl'}
      >
        {preview.isPending && <Loader size="sm" aria-label="Loading preview" />}
        {preview.error && <Text c="red">{preview.error.message}</Text>}
        {preview.data && <PreviewBody preview={preview.data} id={row.id} />}
      </Drawer>
    </>
  );
}
