import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TextFilter } from './search-filter.tsx';

/** The field as a page holds it: `value` is what the URL says, passed back after the page applied it. */
function renderFilter(value: string, onChange: (value: string) => void) {
  const view = render(
    <MantineProvider>
      <TextFilter label="Domain" value={value} onChange={onChange} />
    </MantineProvider>,
  );
  return {
    field: () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Domain' }),
    pass: (next: string) =>
      view.rerender(
        <MantineProvider>
          <TextFilter label="Domain" value={next} onChange={onChange} />
        </MantineProvider>,
      ),
  };
}

describe('TextFilter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the text a moment after the last key', () => {
    const onChange = vi.fn();
    const { field } = renderFilter('', onChange);
    fireEvent.change(field(), { target: { value: '@example.com' } });
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(300));
    expect(onChange).toHaveBeenCalledWith('@example.com');
  });

  it('keeps what was typed when the page passes back an earlier value late', () => {
    const onChange = vi.fn();
    const { field, pass } = renderFilter('', onChange);
    fireEvent.change(field(), { target: { value: '@example.com' } });
    act(() => vi.advanceTimersByTime(300));
    // The next value is typed before the page has rendered the first one from the URL.
    fireEvent.change(field(), { target: { value: '@gmail.com' } });
    pass('@example.com');
    expect(field().value).toBe('@gmail.com');
    act(() => vi.advanceTimersByTime(300));
    expect(onChange).toHaveBeenLastCalledWith('@gmail.com');
    pass('@gmail.com');
    expect(field().value).toBe('@gmail.com');
  });

  it('takes a value the page sets on its own (filters cleared, Back)', () => {
    const onChange = vi.fn();
    const { field, pass } = renderFilter('', onChange);
    fireEvent.change(field(), { target: { value: '@example.com' } });
    act(() => vi.advanceTimersByTime(300));
    pass('@example.com');
    pass('');
    expect(field().value).toBe('');
    pass('@old.example');
    expect(field().value).toBe('@old.example');
    act(() => vi.advanceTimersByTime(300));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('sends at once on Enter', () => {
    const onChange = vi.fn();
    const { field } = renderFilter('', onChange);
    fireEvent.change(field(), { target: { value: '@example.com' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('@example.com');
  });
});
