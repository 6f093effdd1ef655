import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { useVeeForm } from './use-vee-form.ts';

type Values = { name: string; contact_email: string; age: string };
const rules = { name: 'required|max:5', contact_email: 'email', age: 'integer|min_value:18' };

function setup() {
  return renderHook(() => useVeeForm<Values>({ defaultValues: { name: '', contact_email: '', age: '' }, rules }));
}

describe('useVeeForm', () => {
  it('validates with the shared rules and messages, exposing veeErrors and veeFields', async () => {
    const { result } = setup();
    expect(result.current.veeFields.name).toMatchObject({ validated: false, valid: null, invalid: null, required: true, pristine: true });
    expect(result.current.veeFields.contact_email?.required).toBe(false);
    await act(async () => {
      await result.current.form.trigger();
    });
    await waitFor(() => expect(result.current.veeErrors.first('name')).toBe('The name field is required'));
    expect(result.current.veeErrors.has('contact_email')).toBe(false); // empty and not required: skipped
    expect(result.current.veeErrors.count()).toBe(1);
    expect(result.current.veeFields.name).toMatchObject({ validated: true, invalid: true, valid: false });

    await act(async () => {
      result.current.form.setValue('name', 'Too long name', { shouldValidate: true, shouldDirty: true });
      result.current.form.setValue('contact_email', 'nope', { shouldValidate: true });
      result.current.form.setValue('age', '12', { shouldValidate: true });
    });
    await waitFor(() => expect(result.current.veeErrors.first('name')).toBe('The name field may not be greater than 5 characters'));
    expect(result.current.veeErrors.first('contact_email')).toBe('The contact email field must be a valid email');
    expect(result.current.veeErrors.first('age')).toBe('The age field must be 18 or more');
    expect(result.current.veeErrors.all()).toHaveLength(3);
    expect(result.current.veeFields.name).toMatchObject({ dirty: true, changed: true, pristine: false });

    await act(async () => {
      result.current.form.setValue('name', 'Ada', { shouldValidate: true });
    });
    await waitFor(() => expect(result.current.veeErrors.has('name')).toBe(false));
    expect(result.current.veeFields.name).toMatchObject({ valid: true, invalid: false });
  });

  it('puts a 422 answer beside the fields and returns what has no field', async () => {
    const { result } = setup();
    let unplaced: string[] = [];
    act(() => {
      unplaced = result.current.setServerErrors({ name: ['The name has already been taken'], other: ['Something else'] });
    });
    await waitFor(() => expect(result.current.veeErrors.first('name')).toBe('The name has already been taken'));
    expect(unplaced).toEqual(['Something else']);
  });

  it("places an item's error (allowed_ips.0) beside its list, and says what no field shows above the form", async () => {
    const { result } = renderHook(() =>
      useVeeForm<{ name: string; allowed_ips: string[] }>({ defaultValues: { name: '', allowed_ips: [] }, rules: { name: 'required' } }),
    );
    const refused = new ApiError(400, {
      message: 'Please correct: Allowed IPs, Owner.',
      statusCode: 400,
      errors: {
        'allowed_ips.0': ['The Allowed IPs field must hold addresses'],
        'allowed_ips.2': ['The Allowed IPs field must hold addresses'],
        owner: ['The Owner is gone'],
      },
    });
    let general: string | null = null;
    act(() => {
      general = result.current.errorFromSave(refused);
    });
    await waitFor(() => expect(result.current.veeErrors.collect('allowed_ips')).toEqual(['The Allowed IPs field must hold addresses']));
    expect(general).toBe('Please correct: Allowed IPs, Owner. The Owner is gone.');
    // Every error beside a field: nothing above the form; a failure with no field errors says its message.
    act(() => {
      general = result.current.errorFromSave(new ApiError(422, { message: 'x', statusCode: 422, errors: { name: ['taken'] } }));
    });
    expect(general).toBeNull();
    expect(result.current.errorFromSave(new ApiError(409, { message: 'Changed meanwhile.', statusCode: 409 }))).toBe('Changed meanwhile.');
  });

  it('runs the checks across fields with the rules, so one submit shows both', async () => {
    const { result } = renderHook(() =>
      useVeeForm<{ name: string; channel: string; subject: string }>({
        defaultValues: { name: '', channel: 'email', subject: '' },
        rules: { name: 'required' },
        check: (v): Record<string, string[]> =>
          v.channel === 'email' && v.subject === '' ? { subject: ['The Subject field is required for e-mail'] } : {},
      }),
    );
    await act(async () => {
      await result.current.form.handleSubmit(() => undefined)();
    });
    expect(result.current.veeErrors.first('name')).toBe('The name field is required');
    expect(result.current.veeErrors.first('subject')).toBe('The Subject field is required for e-mail');
  });

  it('runs the rules on normalized values and submits those', async () => {
    const { result } = renderHook(() =>
      useVeeForm<{ phone: string }>({
        defaultValues: { phone: '' },
        rules: { phone: { regex: /^\+?[1-9]\d{6,14}$/ } },
        normalize: { phone: (v) => (typeof v === 'string' ? v.replace(/[\s().-]/g, '') : v) },
      }),
    );
    let submitted: { phone: string } | null = null;
    await act(async () => {
      result.current.form.setValue('phone', '+1 (303) 555-0142', { shouldValidate: true });
      await result.current.form.handleSubmit((values) => {
        submitted = values;
      })();
    });
    expect(result.current.veeErrors.has('phone')).toBe(false);
    expect(submitted).toEqual({ phone: '+13035550142' });
  });
});
