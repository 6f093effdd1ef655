import { DISPLAY_NAME_MAX, DISPLAY_TEXT_MAX, TESTIMONIAL_LABELS, type Testimonial, type TestimonialAction } from '@admin/shared';
import { Button, Group, Menu, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RowMenu } from '../../components/row-menu.tsx';
import { ApiError, api } from '../../lib/http.ts';

const ACTION_LABELS: Record<TestimonialAction, string> = {
  approve: 'Approve',
  reject: 'Reject',
  restore: 'Restore',
  publish: 'Publish',
  unpublish: 'Unpublish',
  feature: 'Feature',
  unfeature: 'Unfeature',
};
const DONE: Record<TestimonialAction, string> = {
  approve: 'approved',
  reject: 'rejected',
  restore: 'restored to Pending',
  publish: 'published',
  unpublish: 'unpublished',
  feature: 'featured',
  unfeature: 'no longer featured',
};

/** The actions a testimonial's state offers (the server still decides: consent and approval before publishing). */
export function actionsFor(t: Testimonial): TestimonialAction[] {
  const byStatus: Record<Testimonial['status'], TestimonialAction[]> = {
    pending: ['approve', 'reject'],
    approved: ['publish', 'reject'],
    published: ['unpublish', 'reject'],
    rejected: ['restore'],
  };
  const pin: TestimonialAction[] = t.status === 'rejected' ? [] : [t.featured ? 'unfeature' : 'feature'];
  return [...byStatus[t.status], ...pin];
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

type EditKey = 'display_text' | 'display_name';

/** A testimonial's Actions menu and its two edit dialogs; `onChanged` reloads the list. */
export function TestimonialActions({ t, onChanged }: { t: Testimonial; onChanged(): void }) {
  const [editing, setEditing] = useState<EditKey | null>(null);

  async function run(action: TestimonialAction) {
    try {
      await api.post(`/api/testimonials/${t.id}/${action}`, {});
      notifications.show({ color: 'green', message: `${t.display_name}'s testimonial ${DONE[action]}.` });
      onChanged();
    } catch (e) {
      notifications.show({ color: 'red', title: `${ACTION_LABELS[action]} refused`, message: errorText(e) });
    }
  }

  return (
    <>
      <RowMenu label="More" name={`More actions for ${t.display_name}`}>
        {actionsFor(t).map((a) => (
          <Menu.Item key={a} onClick={() => void run(a)}>
            {ACTION_LABELS[a]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item onClick={() => setEditing('display_text')}>Edit display text</Menu.Item>
        <Menu.Item onClick={() => setEditing('display_name')}>Edit display name</Menu.Item>
      </RowMenu>
      {editing && <EditDialog t={t} field={editing} onClose={() => setEditing(null)} onSaved={onChanged} />}
    </>
  );
}

function EditDialog({ t, field, onClose, onSaved }: { t: Testimonial; field: EditKey; onClose(): void; onSaved(): void }) {
  const label = TESTIMONIAL_LABELS[field];
  const max = field === 'display_text' ? DISPLAY_TEXT_MAX : DISPLAY_NAME_MAX;
  const [value, setValue] = useState(t[field]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    const text = value.trim();
    // The rules `required|max:…`, as the server checks them.
    if (text === '') return setError(`The ${label} field is required`);
    if (text.length > max) return setError(`The ${label} field may not be greater than ${max} characters`);
    setBusy(true);
    try {
      await api.patch(`/api/testimonials/${t.id}`, { [field]: text, updated_at: t.updated_at });
      notifications.show({ color: 'green', message: `${label} saved.` });
      onSaved();
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? (e.fieldErrors[field]?.[0] ?? e.message) : errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const input =
    field === 'display_text' ? (
      <Textarea label={label} autosize minRows={4} value={value} error={error} onChange={(e) => setValue(e.currentTarget.value)} required />
    ) : (
      <TextInput label={label} value={value} error={error} onChange={(e) => setValue(e.currentTarget.value)} required />
    );
  return (
    <Modal opened onClose={onClose} title={`Edit ${label.toLowerCase()}`}>
      <Stack>
        {input}
        {field === 'display_text' && (
          <Text size="sm" c="dimmed">
            Original comment: {t.original_text}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
