import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_ENTRY, loginRejectionMessage, SELECTED_ALL, STATUS_LABELS, STORAGE_KEYS } from './constants.ts';

describe('the spec constants', () => {
  it('keep the spec text, keys and values', () => {
    expect(loginRejectionMessage('a@b.co')).toBe('Note: a@b.co is no Longer allowed. Please try Again with a different account.');
    expect(STORAGE_KEYS.token).toBe('storage-auth-user-token');
    expect(DEFAULT_USER_ENTRY).toEqual({ id: 1000, name: 'Default for New User' });
    expect(STATUS_LABELS).toEqual({ active: 'Active', paused: 'Paused', inactive: 'Archived' });
    expect(SELECTED_ALL).toBe('selected all');
  });
});
