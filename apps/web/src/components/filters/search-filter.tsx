import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

/** **Search**: filters as you type, a moment after the last key. */
export function SearchFilter(props: { value: string; onChange(value: string): void; placeholder?: string }) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const { onChange, value } = props;
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => onChange(text), 300);
    return () => clearTimeout(t);
  }, [text, value, onChange]);
  return (
    <TextInput
      label="Search"
      type="search"
      placeholder={props.placeholder ?? 'Search'}
      value={text}
      w={240}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onChange(text);
      }}
    />
  );
}
