import { TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

/**
 * A free-text filter: applies as you type, a moment after the last key, and at once on Enter.
 * Every text filter works this way so none of them needs Enter and none of them surprises.
 */
export function TextFilter(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  type?: 'search' | 'text';
  w?: number;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const { value } = props;
  // The latest callback, so a re-render of the page (a list refreshing) does not restart the wait.
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => onChange.current(text), 300);
    return () => clearTimeout(t);
  }, [text, value]);
  return (
    <TextInput
      label={props.label}
      type={props.type ?? 'text'}
      placeholder={props.placeholder}
      value={text}
      w={props.w ?? 240}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onChange.current(text);
      }}
    />
  );
}

/** **Search**: filters as you type, a moment after the last key. */
export function SearchFilter(props: { value: string; onChange(value: string): void; placeholder?: string }) {
  return (
    <TextFilter label="Search" type="search" value={props.value} onChange={props.onChange} placeholder={props.placeholder ?? 'Search'} />
  );
}
