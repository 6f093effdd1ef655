import { smsTemplateResource, smsTemplateTestSchema } from '@admin/shared/resources/sms-templates';
import { SendTestDialog } from '../../components/send-test-dialog.tsx';
import { compactPhone } from '../../lib/format.ts';

/**
 * Send test: the template rendered with sample values to one phone, through the same opt-out
 * checks and transport as every message; the result is a row in Tracking Logs.
 */
export function SendTestAction({ row }: { row: { id: number; name: string } }) {
  return (
    <SendTestDialog<{ phone: string }, { id: number; status: string; error: string | null }>
      name={row.name}
      path={`${smsTemplateResource.path}/${row.id}/send-test`}
      field={{ key: 'phone', label: 'Phone', placeholder: 'e.g. +1 303 555 0142' }}
      schema={smsTemplateTestSchema}
      normalize={(typed) => String(compactPhone(typed))}
      intro="The message goes out with sample values (Alex, the current client's name, a test link)."
    />
  );
}
