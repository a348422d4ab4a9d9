import { useId, useRef, useState, type FormEvent } from 'react';
import { useStaffApi } from '../api/staff-api.ts';
import { button, errorText, field, noticeText, secondaryButton } from '../ui/styles.ts';
import { code, row, stack } from './group-leader.styles.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { CreatedParticipant } from './types.ts';
import { PARTICIPANT_NAME_MAX_LENGTH } from '../../contract/limits.ts';

/**
 * Creates a participant and shows the new personal code once: the server keeps only its digest,
 * so the code cannot be shown again after 'Klar'.
 */
export function AddParticipant({ seriesId, onCreated }: { seriesId: number; onCreated(): void }) {
  const api = useStaffApi();
  const id = useId();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedParticipant | null>(null);
  const [copyState, setCopyState] = useState<'copied' | 'failed' | null>(null);
  const codeHeading = useRef<HTMLHeadingElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const invalid = touched && !name.trim();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!name.trim()) return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await api.post<CreatedParticipant>(`/series/${seriesId}/participants`, {
        name: name.trim(),
      });
      setCreated(result);
      setCopyState(null);
      setName('');
      setTouched(false);
      onCreated();
      requestAnimationFrame(() => codeHeading.current?.focus());
    } catch (err) {
      setFailure(err instanceof Error ? err.message : T.loadFailed);
    } finally {
      setBusy(false);
    }
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  }

  if (created) {
    return (
      <div className={stack} aria-labelledby={`${id}-code-title`} role="region">
        <h3 id={`${id}-code-title`} ref={codeHeading} tabIndex={-1} style={{ margin: 0 }}>
          {T.participants.codeHeading(created.name)}
        </h3>
        <p className={code} data-testid="personal-code">
          {created.personalCode}
        </p>
        <p className={noticeText} style={{ margin: 0 }}>
          {T.participants.codeOnce}
        </p>
        <div className={row}>
          <button type="button" className={button} onClick={() => void copy(created.personalCode)}>
            {T.participants.copy}
          </button>
          <button
            type="button"
            className={`${button} ${secondaryButton}`}
            onClick={() => {
              setCreated(null);
              requestAnimationFrame(() => nameInput.current?.focus());
            }}
          >
            {T.participants.done}
          </button>
        </div>
        <p role="status" style={{ margin: 0 }}>
          {copyState === 'copied' ? T.participants.copied : ''}
        </p>
        {copyState === 'failed' && (
          <p className={errorText} role="alert">
            {T.participants.copyFailed}
          </p>
        )}
      </div>
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} style={{ margin: '0 0 0.5rem' }}>
        {T.participants.add}
      </h3>
      <div className={field}>
        <label htmlFor={`${id}-name`}>{T.participants.name}</label>
        <input
          id={`${id}-name`}
          ref={nameInput}
          value={name}
          maxLength={PARTICIPANT_NAME_MAX_LENGTH}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${id}-name-error` : undefined}
        />
        {invalid && (
          <span id={`${id}-name-error`} className={errorText}>
            {T.form.required}
          </span>
        )}
      </div>
      {failure && (
        <p className={errorText} role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className={button} disabled={busy}>
        {busy ? T.participants.creating : T.participants.create}
      </button>
    </form>
  );
}
