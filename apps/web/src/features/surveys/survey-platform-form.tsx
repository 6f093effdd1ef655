import { FEED_FIELDS, type FeedField, type FeedMapping } from '@admin/shared/pipeline/enums';
import {
  checkFeed,
  type DataFeed,
  dataFeedResource,
  FEED_FIELD_LABELS,
  FEED_SAMPLE_LABELS,
  type FeedPreview,
} from '@admin/shared/resources/data-feeds';
import { Alert, Autocomplete, Fieldset, FileInput, PasswordInput, ScrollArea, SimpleGrid, Table, TagsInput, Text } from '@mantine/core';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { api } from '../../lib/http.ts';

const mapKey = (field: FeedField) => `map_${field}`;
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
const NUMBERS = ['survey_id', 'sftp_port'];

/** The mapping as the form holds it: one text per field (`map_first_name`: the source column). */
function mappingOf(values: Partial<FormValues> | Record<string, unknown>): FeedMapping {
  const mapping: FeedMapping = {};
  for (const field of FEED_FIELDS) {
    const column = text(values[mapKey(field)]).trim();
    if (column) mapping[field] = column;
  }
  return mapping;
}

/** The current client's locations, paged on the server (`GET /api/endpoints/options`). */
const LOCATIONS_PATH = '/api/endpoints/options';

/**
 * A feed's form (docs/screens.md, Survey Platform): the feed (name, source system, vendor, trigger,
 * survey, location: one fixed location or a location code column), the SFTP settings when the
 * source is SFTP (the password is never shown; blank keeps the stored one), the file's format, and
 * the field mapping (source column → field) with a preview of a sample file's first rows, whose
 * columns the mapping then offers. `checkFeed` runs with the rules, as the server runs it.
 */
export function FeedForm(props: ResourceFormProps<DataFeed>) {
  const record = props.record;
  const initialMapping = record?.field_mapping ?? Object.fromEntries(FEED_FIELDS.map((f) => [f, f]));
  const form = useResourceForm(dataFeedResource, props, {
    initial: {
      ...Object.fromEntries(FEED_FIELDS.map((f) => [mapKey(f), initialMapping[f] ?? ''])),
      field_mapping: '',
      sftp_password: '',
      ...(record ? {} : { allowed_ips: [] }),
    },
    toBody: (values) => {
      const { field_mapping: _mapping, ...rest } = values;
      const own = Object.fromEntries(Object.entries(rest).filter(([key]) => !key.startsWith('map_')));
      const body = bodyOf(own);
      for (const key of NUMBERS) {
        const v = body[key];
        if (typeof v === 'string') body[key] = /^\d+$/.test(v) ? Number(v) : v;
      }
      if (body.sftp_password === null) delete body.sftp_password;
      // Any mapping change sends the whole mapping (the server replaces it).
      if (!record || Object.keys(values).some((k) => k.startsWith('map_'))) body.field_mapping = mappingOf(form.form.getValues());
      return body;
    },
    // The checks across fields run with the rules, so one submit shows every problem at once; the
    // mapping's are shown above the mapping (under its first field's key).
    check: (values) => {
      const errors = checkFeed({
        source_type: text(values.source_type),
        location_mode: text(values.location_mode),
        location_id: text(values.location_id),
        sftp_host: text(values.sftp_host),
        sftp_path: text(values.sftp_path),
        sftp_username: text(values.sftp_username),
        sftp_password: text(values.sftp_password),
        password_set: record?.sftp_password_set ?? false,
        field_mapping: mappingOf(values),
      });
      const { field_mapping: mapping, ...rest } = errors;
      return mapping ? { ...rest, [mapKey('first_name')]: [mapping.join('. ')] } : rest;
    },
  });
  const { control } = form.form;
  const [sourceType, locationMode, delimiter, hasHeader] = useWatch({
    control,
    name: ['source_type', 'location_mode', 'delimiter', 'has_header'],
  });
  // The feed's own names label its survey and location before the first answer.
  const known = {
    survey_id: record ? { [String(record.survey_id)]: record.survey_name ?? String(record.survey_id) } : {},
    location_id: record?.location_id ? { [record.location_id]: record.location_name ?? record.location_id } : {},
  };
  const [preview, setPreview] = useState<FeedPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);

  const loadSample = async (file: File | null) => {
    setPreview(null);
    setPreviewError(null);
    if (!file) return;
    try {
      const { data } = await api.post<{ data: FeedPreview }>(`${dataFeedResource.path}/preview`, {
        csv: await file.text(),
        file_name: file.name,
        delimiter: text(delimiter) || 'comma',
        has_header: hasHeader !== false,
      });
      setPreview(data);
    } catch (e) {
      setPreviewError(e instanceof Error ? e.message : String(e));
    }
  };

  const select = (name: 'survey_id' | 'location_id', path: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <RemoteSelect
          label={dataFeedResource.fields[name].label}
          required
          path={path}
          value={text(field.value) || null}
          onChange={(v) => field.onChange(v ?? '')}
          onBlur={field.onBlur}
          error={form.error(name)}
          labels={known[name]}
        />
      )}
    />
  );
  // The check's mapping problems, or the server's (`field_mapping`, `field_mapping.email`…).
  const mappingErrors = form.error(mapKey('first_name')) ?? form.error('field_mapping');

  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <FieldRow form={form} names={['source_type', 'vendor']} />
      <Field form={form} name="trigger_event" />
      {select('survey_id', dataFeedResource.filters.survey.optionsPath)}
      <Field form={form} name="location_mode" />
      {locationMode !== 'column' && select('location_id', LOCATIONS_PATH)}
      {sourceType === 'sftp' && (
        <Fieldset legend="SFTP">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Field form={form} name="sftp_host" />
            <Field form={form} name="sftp_port" />
            <Field form={form} name="sftp_path" />
            <Field form={form} name="file_name_pattern" />
            <Field form={form} name="sftp_username" />
            <PasswordInput
              label={dataFeedResource.labels.sftp_password}
              description={record?.sftp_password_set ? 'Stored encrypted; leave blank to keep it' : undefined}
              required={!record?.sftp_password_set}
              autoComplete="new-password"
              error={form.error('sftp_password')}
              {...form.form.register('sftp_password')}
            />
          </SimpleGrid>
          <Field form={form} name="schedule_cron" description="minute hour day month weekday, in the client’s time zone" />
        </Fieldset>
      )}
      <FieldRow form={form} names={['delimiter', 'date_format']} />
      <Field form={form} name="has_header" />
      <Controller
        control={control}
        name="allowed_ips"
        render={({ field }) => (
          <TagsInput
            label={dataFeedResource.labels.allowed_ips}
            description="Addresses or host names the feed’s files and calls may come from; press Enter after each"
            value={list(field.value)}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={form.error('allowed_ips')}
          />
        )}
      />
      <Fieldset legend="Field mapping (source column → field)">
        <FileInput
          label={FEED_SAMPLE_LABELS.csv}
          description="Shows its first rows and offers its columns below; nothing is imported"
          accept=".csv,.txt,text/csv"
          onChange={(file) => void loadSample(file)}
          clearable
          placeholder="Choose a sample file"
          mb="sm"
        />
        {previewError && (
          <Alert color="red" variant="light" mb="sm">
            {previewError}
          </Alert>
        )}
        {preview && (
          <ScrollArea mb="sm">
            <Table striped withTableBorder aria-label="Sample rows">
              <Table.Thead>
                <Table.Tr>
                  {preview.columns.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.rows.map((r, i) => (
                  // The preview's rows have no ids; their order is fixed.
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed sample
                  <Table.Tr key={i}>
                    {r.map((v, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed row
                      <Table.Td key={j}>{v}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {mappingErrors && (
          <Text c="red" size="sm" role="alert" mb="xs">
            {mappingErrors}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FEED_FIELDS.map((field) => (
            <Controller
              key={field}
              control={control}
              name={mapKey(field)}
              render={({ field: input }) => (
                <Autocomplete
                  label={`${FEED_FIELD_LABELS[field]} column`}
                  data={preview?.columns ?? []}
                  value={text(input.value)}
                  onChange={input.onChange}
                  onBlur={input.onBlur}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
          ))}
        </SimpleGrid>
      </Fieldset>
    </ResourceFormShell>
  );
}
