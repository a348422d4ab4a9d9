import { css } from '@linaria/core';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { button, card, errorText, field, noticeText } from '../ui/styles.ts';
import { SESSION_TEXTS as T } from './texts.ts';
import { SignInError, useSessionState, type SessionNotice } from './staff-session.tsx';

const page = css`
  display: flex;
  justify-content: center;
  padding: 2rem 1rem;
`;

const form = css`
  width: 100%;
  max-width: 24rem;
  & h1 {
    margin-top: 0;
  }
`;

function failureText(error: unknown): string {
  if (!(error instanceof SignInError)) return T.failed;
  if (error.failure === 'invalid') return T.invalid;
  if (error.failure === 'throttled') return T.throttled;
  if (error.failure === 'notStaff') return T.notStaff;
  return T.failed;
}

/** A labelled input; the form's one error message says what is wrong with it. */
function TextField({
  id,
  label,
  inputRef,
  value,
  onChange,
  invalid,
  ...input
}: {
  id: string;
  name: string;
  label: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  type?: 'password';
  autoComplete: string;
  autoCapitalize?: string;
}) {
  return (
    <div className={field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        {...input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}

/** Password sign-in for counsellors and group leaders (client `portal-staff`). */
export function SignInForm({ notice }: { notice: SessionNotice }) {
  const { signIn } = useSessionState();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim()) {
      setError(T.usernameRequired);
      usernameRef.current?.focus();
      return;
    }
    if (!password) {
      setError(T.passwordRequired);
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(username.trim(), password);
    } catch (err) {
      setError(failureText(err));
      setBusy(false);
    }
  }

  return (
    <main className={page}>
      <form
        className={`${card} ${form}`}
        onSubmit={submit}
        noValidate
        aria-describedby={error ? errorId : undefined}
      >
        <h1>{T.heading}</h1>
        <p>{T.intro}</p>
        {notice === 'expired' && <p className={noticeText}>{T.expired}</p>}
        {notice === 'signedOut' && <p className={noticeText}>{T.signedOut}</p>}
        <TextField
          id="staff-username"
          name="username"
          label={T.username}
          inputRef={usernameRef}
          autoComplete="username"
          autoCapitalize="none"
          value={username}
          onChange={setUsername}
          invalid={error === T.usernameRequired}
        />
        <TextField
          id="staff-password"
          name="password"
          label={T.password}
          inputRef={passwordRef}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          invalid={error === T.passwordRequired}
        />
        {error && (
          <p id={errorId} className={errorText} role="alert">
            {error}
          </p>
        )}
        <button className={button} type="submit" disabled={busy}>
          {busy ? T.submitting : T.submit}
        </button>
      </form>
    </main>
  );
}
