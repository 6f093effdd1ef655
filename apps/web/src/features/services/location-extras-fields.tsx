import { REVIEW_SITES } from '@admin/shared/constants';
import { type Hours, type ReviewLinks, WEEKDAY_LABELS, WEEKDAYS } from '@admin/shared/resources/location-extras';
import { Checkbox, Fieldset, Group, SimpleGrid, Text, TextInput } from '@mantine/core';

export type Extras = { hours: Hours; review_links: ReviewLinks };

/**
 * Opening hours per weekday and a review link per site. Errors are keyed by path
 * (`hours.mon.open`, `review_links.google`), as checkLocationExtras and the API name them.
 */
export function LocationExtrasFields(props: {
  value: Extras;
  onChange(next: Extras): void;
  errors: Record<string, string[]>;
  onBlur(): void;
}) {
  const { hours, review_links } = props.value;
  const err = (key: string) => props.errors[key]?.[0];
  const setDay = (day: (typeof WEEKDAYS)[number], slot: { open: string; close: string } | null) =>
    props.onChange({ ...props.value, hours: { ...hours, [day]: slot } });
  return (
    <>
      <Fieldset legend="Opening hours">
        <Text size="xs" c="dimmed" mb="xs">
          24-hour times, e.g. 08:00 and 17:30. Untick a day when the location is closed.
        </Text>
        {WEEKDAYS.map((day) => {
          const slot = hours[day] ?? null;
          const label = WEEKDAY_LABELS[day];
          return (
            <Group key={day} gap="sm" align="flex-start" wrap="nowrap" mb={6}>
              <Checkbox
                label={label}
                w={120}
                mt={8}
                checked={slot !== null}
                onChange={(e) => setDay(day, e.currentTarget.checked ? { open: '08:00', close: '17:00' } : null)}
              />
              {slot && (
                <>
                  <TextInput
                    aria-label={`${label} opens`}
                    placeholder="e.g. 08:00"
                    w={110}
                    value={slot.open}
                    onChange={(e) => setDay(day, { ...slot, open: e.currentTarget.value })}
                    onBlur={props.onBlur}
                    error={err(`hours.${day}.open`)}
                  />
                  <TextInput
                    aria-label={`${label} closes`}
                    placeholder="e.g. 17:00"
                    w={110}
                    value={slot.close}
                    onChange={(e) => setDay(day, { ...slot, close: e.currentTarget.value })}
                    onBlur={props.onBlur}
                    error={err(`hours.${day}.close`)}
                  />
                </>
              )}
            </Group>
          );
        })}
      </Fieldset>
      <Fieldset legend="Review links">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {REVIEW_SITES.map((site) => (
            <TextInput
              key={site.value}
              label={`${site.label} review link`}
              placeholder="e.g. https://…"
              value={review_links[site.value] ?? ''}
              onChange={(e) => props.onChange({ ...props.value, review_links: { ...review_links, [site.value]: e.currentTarget.value } })}
              onBlur={props.onBlur}
              error={err(`review_links.${site.value}`)}
            />
          ))}
        </SimpleGrid>
      </Fieldset>
    </>
  );
}
