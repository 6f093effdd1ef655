import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useMatches } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';

/** The label of the current route, from the route table's `handle`. */
export function useRouteLabel(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as { label?: string } | undefined;
    if (handle?.label) return handle.label;
  }
  return 'Admin Panel';
}

/** A screen: its label as the one `<h1>` and the document title, then its content. */
export function Page({ title, actions, children }: { title?: string; actions?: ReactNode; children?: ReactNode }) {
  const routeLabel = useRouteLabel();
  const label = title ?? routeLabel;
  useDocumentTitle(label);
  return (
    <Stack gap="md">
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, flexWrap: 'wrap' }}>
        <Title order={1} size="h2">
          {label}
        </Title>
        {actions}
      </div>
      {children}
    </Stack>
  );
}
