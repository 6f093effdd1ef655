import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListParams } from './list-params.ts';

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
