import { LOGIN_LABELS } from '@admin/shared/constants';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { ApiError } from '../../lib/http.ts';
import { returnPath } from '../../lib/return-to.ts';
import { isSignedIn, readSsoCookie } from '../../lib/session-storage.ts';
import { useSession } from '../../lib/session-store.ts';

type Field = 'email' | 'password';

// The login form's rules (email `required|email`, password `required|min:8`), with vee-validate
// 2's English messages naming each field by its label.
function validateField(field: Field, value: string): string | null {
  const label = LOGIN_LABELS[field];
  if (value.trim() === '') return `The ${label} field is required`;
  if (field === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) return `The ${label} field must be a valid email`;
  if (field === 'password' && value.length < 8) return `The ${label} field must be at least 8 characters`;
  return null;
}

export default function LoginPage() {
  useDocumentTitle('Login');
  const navigate = useNavigate();
  // A deep link opened signed out lands on its page after sign-in, not on `/`.
  const destination = returnPath(useLocation().state);
  const signIn = useSession((s) => s.signIn);
  const completeSignIn = useSession((s) => s.completeSignIn);
  const failure = useSession((s) => s.loginFailureMessage);
  const loading = useSession((s) => s.loading);
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string | null>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const ssoTried = useRef(false);

  // Single sign-on (docs/overview.md, Signing in): a token in the ssoToken cookie signs the user in without the form.
  useEffect(() => {
    if (ssoTried.current) return;
    ssoTried.current = true;
    if (isSignedIn(window.sessionStorage)) {
      navigate(destination, { replace: true });
      return;
    }
    const token = readSsoCookie(document.cookie);
    if (!token) return;
    completeSignIn(token).then(
      (ok) => ok && navigate(destination, { replace: true }),
      (err: unknown) => console.error('Single sign-on failed', err),
    );
  }, [completeSignIn, navigate, destination]);

  const check = (field: Field, value: string) => setErrors((e) => ({ ...e, [field]: validateField(field, value) }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = { email: validateField('email', values.email), password: validateField('password', values.password) };
    setErrors(next);
    setFormError(null);
    if (next.email || next.password) return;
    try {
      if (await signIn(values.email.trim(), values.password)) navigate(destination, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) return; // shown as the failure message
      if (err instanceof ApiError && err.fieldErrors) {
        const fe = err.fieldErrors;
        setErrors({ email: fe.email?.[0] ?? null, password: fe.password?.[0] ?? null });
      }
      setFormError(err instanceof Error ? err.message : 'Sign-in failed.');
    }
  }

  return (
    <main className="login-screen">
      <div className="login-card">
        <form onSubmit={onSubmit} noValidate aria-busy={loading}>
          <h1>Login</h1>
          {failure && (
            <div className="login-alert" role="alert">
              {failure}
            </div>
          )}
          {formError && (
            <div className="login-alert" role="alert">
              {formError}
            </div>
          )}
          <FieldRow
            id="login-email"
            label={LOGIN_LABELS.email}
            type="email"
            autoComplete="username"
            value={values.email}
            error={errors.email}
            onChange={(email) => {
              setValues((v) => ({ ...v, email }));
              if (errors.email !== undefined) check('email', email);
            }}
            onBlur={(email) => check('email', email)}
          />
          <FieldRow
            id="login-password"
            label={LOGIN_LABELS.password}
            type="password"
            autoComplete="current-password"
            value={values.password}
            error={errors.password}
            onChange={(password) => {
              setValues((v) => ({ ...v, password }));
              if (errors.password !== undefined) check('password', password);
            }}
            onBlur={(password) => check('password', password)}
          />
          <button type="submit" className="login-button" disabled={loading}>
            {loading ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}

type FieldRowProps = {
  id: string;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  value: string;
  error: string | null | undefined;
  onChange(value: string): void;
  onBlur(value: string): void;
};

/** A labelled input with its message beside it; plain elements keep the login route small. */
function FieldRow({ id, label, type, autoComplete, value, error, onChange, onBlur }: FieldRowProps) {
  return (
    <div className="login-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        type={type}
        autoComplete={autoComplete}
        required
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
        onBlur={(e) => onBlur(e.currentTarget.value)}
      />
      {error && (
        <div id={`${id}-error`} className="login-error">
          {error}
        </div>
      )}
    </div>
  );
}
