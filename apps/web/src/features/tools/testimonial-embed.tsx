import { Button, Code, CopyButton, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/http.ts';

type Embed = { script: string; iframe: string };

/** **Copy embed code**: the widget for the client, or for one of its locations (decision 046). */
export function EmbedCodeButton({ locations }: { locations: { value: string; label: string }[] }) {
  const [open, setOpen] = useState(false);
  const [location, setLocation] = useState<string | null>(null);
  const embed = useQuery({
    queryKey: ['testimonial-embed', location],
    queryFn: ({ signal }) => api.get<{ data: Embed }>('/api/testimonials/embed', { query: location ? { location } : {}, signal }),
    enabled: open,
    meta: { what: 'the embed code' },
  });
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Copy embed code
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Embed selected testimonials" size="lg">
        <Stack>
          <Select
            label="Show testimonials of"
            data={[{ value: '', label: 'The whole client' }, ...locations]}
            value={location ?? ''}
            onChange={(v) => setLocation(v ? v : null)}
            comboboxProps={{ withinPortal: true }}
          />
          {embed.data && (
            <>
              <Snippet label="Script (a web component)" code={embed.data.data.script} />
              <Snippet label="Or an iframe" code={embed.data.data.iframe} />
            </>
          )}
          <Text size="sm" c="dimmed">
            Only published testimonials appear, featured first, under the heading "Selected testimonials".
          </Text>
        </Stack>
      </Modal>
    </>
  );
}

function Snippet({ label, code }: { label: string; code: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block>{code}</Code>
    </Stack>
  );
}
