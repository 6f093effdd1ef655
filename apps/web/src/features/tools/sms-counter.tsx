import { SMS_ENCODING_LABELS, SMS_LINK_LENGTH, SMS_TOKEN_LENGTHS, type SmsCheck } from '@admin/shared/resources/sms-templates';
import { Badge, Group, List, Text } from '@mantine/core';

/** How a character that forced UCS-2 is named: itself and its code point (a curly quote looks like a straight one). */
const describe = (char: string) => `${char} (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`;

/**
 * The live counter under a message: characters, encoding, segments and what is left in the last
 * one, which characters forced UCS-2 or count double, the warnings and the compliance problems
 * (less the one the message field already shows under itself after a save, `shownOnField`, so
 * no message is read or seen twice). Colours by name, not shade: the theme gives each a shade
 * that reads on white (decision 042).
 */
export function SmsCounter({ check, id, shownOnField }: { check: SmsCheck; id: string; shownOnField?: string | undefined }) {
  const { count, warnings } = check;
  const errors = check.errors.filter((e) => e !== shownOnField);
  const segments = `${count.segments} segment${count.segments === 1 ? '' : 's'}`;
  return (
    <div id={id} role="status" aria-live="polite" aria-label="Message length">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {count.characters} characters
        </Text>
        <Badge variant="light" color={count.encoding === 'ucs2' ? 'orange' : 'gray'}>
          {SMS_ENCODING_LABELS[count.encoding]}
        </Badge>
        <Text size="sm" fw={600}>
          {segments}
        </Text>
        <Text size="xs" c="dimmed">
          {count.remaining} {count.encoding === 'gsm7' ? 'septets' : 'units'} left in this segment ({count.perSegment} per segment)
        </Text>
      </Group>
      {count.nonGsm.length > 0 && (
        <Text size="xs" c="orange">
          UCS-2 because of {count.nonGsm.slice(0, 5).map(describe).join(', ')}
          {count.nonGsm.length > 5 ? ` and ${count.nonGsm.length - 5} more` : ''}: a segment then holds 70 characters, 67 when concatenated.
        </Text>
      )}
      {count.encoding === 'gsm7' && count.extension.length > 0 && (
        <Text size="xs" c="dimmed">
          {count.extension.join(' ')} count as 2 characters each.
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Links and {'{link}'} count as {SMS_LINK_LENGTH} (short link); {'{first_name}'} as {SMS_TOKEN_LENGTHS['{first_name}']},{' '}
        {'{business_name}'} as {SMS_TOKEN_LENGTHS['{business_name}']}.
      </Text>
      {(warnings.length > 0 || errors.length > 0) && (
        <List size="xs" spacing={2} mt={4}>
          {errors.map((e) => (
            <List.Item key={e} c="red">
              {e}
            </List.Item>
          ))}
          {warnings.map((w) => (
            <List.Item key={w} c="orange">
              Warning: {w}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
