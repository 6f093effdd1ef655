import { TextInput } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';

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
  const { value } = props;
  // The latest callback, so a re-render of the page (a list refreshing) does not restart the wait.
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  // What this field sent that the page has not passed back yet, oldest first. The page passes a
  // value back once the URL has it, and the router may render that later than the next keys:
  // the echo of a sent value must not replace what was typed since. Any other value (filters
  // cleared, the browser's Back) replaces the text.
  const unacknowledged = useRef<string[]>([]);
  useEffect(() => {
    const sent = unacknowledged.current;
    const at = sent.indexOf(value);
    if (at >= 0) {
      sent.splice(0, at + 1);
      return;
    }
    sent.length = 0;
    setText(value);
  }, [value]);
  const send = useCallback((next: string) => {
    unacknowledged.current.push(next);
    onChange.current(next);
  }, []);
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => send(text), 300);
    return () => clearTimeout(t);
  }, [text, value, send]);
  return (
    <TextInput
      label={props.label}
      type={props.type ?? 'text'}
      placeholder={props.placeholder}
      value={text}
      w={props.w ?? 240}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') send(text);
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
