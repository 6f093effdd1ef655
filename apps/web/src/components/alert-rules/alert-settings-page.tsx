import type { ResourceView, Status } from '@admin/shared';
import { DEFAULT_RECIPIENT_ID } from '@admin/shared/resources/survey-alert-rules';
import { Button, Stack, Text } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { ClientsShown } from '../resource/clients-shown.tsx';
import { ResourcePage } from '../resource/resource-page.tsx';
import type { Editable, ResourceFormProps } from '../resource/use-resource-form.ts';
import { AlertRuleTestAction, DuplicateAlertRuleAction, type TestWording } from './alert-rule-actions.tsx';

type RuleRow = Editable & { id: number; name: string; client_name: string | null; status: Status };

/**
 * An alert settings screen (Survey and Review Alert Settings): the kind's rules of the current
 * client or of the clients chosen in the Clients filter, with the note on Default for New User and
 * the button listing the rules that name it (docs/decisions/044-client-users.md); Duplicate and
 * the kind's test per row, besides the kit's Edit, Pause/Resume and Archive; Export.
 */
export function AlertSettingsPage<Row extends RuleRow>(props: {
  resource: ResourceView<Row> & { path: string };
  clientsOptionsPath: string;
  form: ComponentType<ResourceFormProps<Row>>;
  /** Who joins by default, as the kind says it. */
  defaultNote: ReactNode;
  defaultsButton: string;
  test: TestWording;
}) {
  const { resource } = props;
  return (
    <ResourcePage
      resource={resource}
      form={props.form}
      panelSize="lg"
      intro={(list) => (
        <Stack gap={4}>
          <ClientsShown list={list} optionsPath={props.clientsOptionsPath} />
          <Text size="sm" c="dimmed">
            {props.defaultNote}
          </Text>
          <div>
            <Button size="compact-sm" variant="light" onClick={() => list.update({ multi: { recipient: [String(DEFAULT_RECIPIENT_ID)] } })}>
              {props.defaultsButton}
            </Button>
          </div>
        </Stack>
      )}
      rowActions={(row, list) => (
        <>
          <DuplicateAlertRuleAction row={row} list={list} path={resource.path} />
          <AlertRuleTestAction row={row} path={resource.path} wording={props.test} />
        </>
      )}
    />
  );
}
