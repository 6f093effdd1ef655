import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { followRendered, useListParams, type WrittenParams } from './list-params.ts';

const config = { multi: { directory: [], status: [] }, single: [] };
const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={['/list?sort=name']}>{children}</MemoryRouter>;

describe('useListParams', () => {
  it('keeps every change made before the page re-renders (the search applied, then a filter picked at once)', () => {
    const { result } = renderHook(() => useListParams(config), { wrapper });
    const first = result.current.update;
    act(() => {
      first({ q: 'Summit East' });
      // The same handler, from the render before the search was applied.
      first({ multi: { directory: ['google'] } });
      first({ multi: { status: ['needs_update'] } });
    });
    expect(result.current.params).toMatchObject({
      q: 'Summit East',
      sort: 'name',
      multi: { directory: ['google'], status: ['needs_update'] },
    });
  });

  it('follows the URL when it changes underneath (a stale handler builds on what is shown)', () => {
    const { result } = renderHook(() => useListParams(config), { wrapper });
    act(() => result.current.update({ q: 'a' }));
    act(() => result.current.update({ q: '' }));
    act(() => result.current.update({ multi: { status: ['ok'] } }));
    expect(result.current.params.q).toBe('');
    expect(result.current.params.multi.status).toEqual(['ok']);
  });
});

describe('followRendered', () => {
  const url = (text: string) => new URLSearchParams(text);
  const start = url('sort=name');
  const write = (state: WrittenParams, text: string): WrittenParams => ({
    ...state,
    written: url(text),
    pending: [...state.pending, text],
  });

  it('keeps a later write when a render shows an earlier one (two transitions rendered apart)', () => {
    let state: WrittenParams = { rendered: start, written: start, pending: [] };
    state = write(state, 'sort=name&directory=google');
    state = write(state, 'sort=name&directory=google&q=Summit');
    state = followRendered(state, url('sort=name&directory=google'));
    expect(state.written.toString()).toBe('sort=name&directory=google&q=Summit');
    expect(state.pending).toEqual(['sort=name&directory=google&q=Summit']);
    state = followRendered(state, url('sort=name&directory=google&q=Summit'));
    expect(state.pending).toEqual([]);
    expect(state.written.toString()).toBe('sort=name&directory=google&q=Summit');
  });

  it('builds on a URL it did not write (Back, a link) and forgets its own unrendered writes', () => {
    let state: WrittenParams = { rendered: start, written: start, pending: [] };
    state = write(state, 'sort=name&q=a');
    const back = url('sort=date');
    state = followRendered(state, back);
    expect(state).toEqual({ rendered: back, written: back, pending: [] });
  });
});
