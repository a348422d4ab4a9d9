import { useId, useState, type FormEvent } from 'react';
import { useStaffApi } from '../api/staff-api.ts';
import { button, card, errorText, field, secondaryButton } from '../ui/styles.ts';
import { row, textareaField } from './group-leader.styles.ts';
import { formatDateTimeLocalInput } from '../../client-kit/time/format-time.ts';
import { nextFiveMinutes } from './next-five-minutes.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { Meeting } from './types.ts';
import { MEETING_DESCRIPTION_MAX_LENGTH } from '../../contract/limits.ts';

interface Values {
  subject: string;
  description: string;
  start: string;
  duration: string;
}

type Errors = Partial<Record<keyof Values, string>>;

function validate(v: Values): Errors {
  const errors: Errors = {};
  if (!v.subject.trim()) errors.subject = T.form.required;
  if (!v.start || Number.isNaN(new Date(v.start).getTime())) errors.start = T.form.required;
  const minutes = Number(v.duration);
  if (!v.duration) errors.duration = T.form.required;
  else if (!Number.isInteger(minutes) || minutes < 5 || minutes > 600) errors.duration = T.form.durationRange;
  return errors;
}

/** Create a meeting in a series, or change one ('Ämne', 'Beskrivning', 'Starttid', 'Längd (minuter)'). */
export function MeetingForm({
  seriesId,
  meeting,
  onDone,
  onCancel,
}: {
  seriesId: number;
  meeting?: Meeting;
  onDone(meeting: Meeting): void;
  onCancel(): void;
}) {
  const api = useStaffApi();
  const id = useId();
  const [values, setValues] = useState<Values>(() => ({
    subject: meeting?.subject ?? '',
    description: meeting?.descriptionBodyContent ?? '',
    start: formatDateTimeLocalInput(meeting ? meeting.startDate : nextFiveMinutes()),
    duration: String(meeting?.duration ?? 60),
  }));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = validate(values);
  const shown = touched ? errors : {};

  const set = (key: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setFailure(null);
    const body = {
      subject: values.subject.trim(),
      description: values.description,
      startDate: new Date(values.start).toISOString(),
      duration: Number(values.duration),
    };
    try {
      const saved = meeting
        ? await api.put<Meeting>(`/meetings/${meeting.id}`, body)
        : await api.post<Meeting>('/meetings', { ...body, seriesId });
      onDone(saved);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : T.loadFailed);
    } finally {
      setBusy(false);
    }
  }

  const input = (key: keyof Values, label: string, props: Record<string, unknown> = {}) => (
    <div className={field}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        value={values[key]}
        onChange={set(key)}
        aria-invalid={shown[key] ? true : undefined}
        aria-describedby={shown[key] ? `${id}-${key}-error` : undefined}
        {...props}
      />
      {shown[key] && (
        <span id={`${id}-${key}-error`} className={errorText}>
          {shown[key]}
        </span>
      )}
    </div>
  );

  return (
    <form className={card} onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} style={{ marginBottom: '1rem' }}>
        {meeting ? T.editMeetingHeading : T.newMeetingHeading}
      </h2>
      {input('subject', T.form.subject, { maxLength: 200, required: true, autoComplete: 'off' })}
      <div className={`${field} ${textareaField}`}>
        <label htmlFor={`${id}-description`}>{T.form.description}</label>
        <textarea
          id={`${id}-description`}
          value={values.description}
          onChange={set('description')}
          maxLength={MEETING_DESCRIPTION_MAX_LENGTH}
        />
      </div>
      {input('start', T.form.startDate, { type: 'datetime-local', required: true })}
      {input('duration', T.form.duration, { type: 'number', min: 5, max: 600, step: 5, required: true })}
      {failure && (
        <p className={errorText} role="alert">
          {failure}
        </p>
      )}
      <div className={row}>
        <button type="submit" className={button} disabled={busy}>
          {busy ? (meeting ? T.form.saving : T.form.creating) : meeting ? T.form.save : T.form.create}
        </button>
        <button type="button" className={`${button} ${secondaryButton}`} onClick={onCancel}>
          {T.form.cancel}
        </button>
      </div>
    </form>
  );
}
