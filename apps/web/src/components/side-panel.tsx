import { Drawer, type DrawerProps, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The screens' right-hand panel for a form or a record's details, titled as an `<h2>`. */
export function SidePanel(props: { opened: boolean; onClose(): void; title: ReactNode; size: DrawerProps['size']; children: ReactNode }) {
  return (
    <Drawer
      opened={props.opened}
      onClose={props.onClose}
      position="right"
      size={props.size}
      title={
        <Title order={2} size="h4">
          {props.title}
        </Title>
      }
    >
      {props.children}
    </Drawer>
  );
}
