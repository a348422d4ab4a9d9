import { useId, useRef, useState, type ChangeEvent } from 'react';
import { UPLOAD_LIMITS } from '../../contract/limits.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, errorText, mutedText } from '../ui/styles.ts';
import { fileInput, plainList, progress, stack } from './group-leader.styles.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { MeetingAppendix, ValueList } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';

const allowedExtensions = UPLOAD_LIMITS.acceptAttribute.split(',');

/** Checked before sending so a wrong file fails at once; the server checks the real content again. */
function precheck(file: File): string | null {
  if (file.size > UPLOAD_LIMITS.maxBytes) return T.appendices.tooLarge;
  const dot = file.name.lastIndexOf('.');
  const ext = dot >= 0 ? file.name.slice(dot).toLowerCase() : '';
  if (!allowedExtensions.includes(ext)) return T.appendices.wrongType;
  return null;
}

function uploadError(error: unknown): string {
  if (error instanceof StaffApiError) {
    if (error.status === 413) return T.appendices.tooLarge;
    if (error.status === 415) return T.appendices.wrongType;
    if (error.status === 0) return error.message;
  }
  return T.appendices.failed;
}

/** The meeting's appendices and the upload of a new one, with progress. */
export function Appendices({ meetingId }: { meetingId: number }) {
  const api = useStaffApi();
  const id = useId();
  const list = useStaffGet<ValueList<MeetingAppendix>>(`/meetings/${meetingId}/appendices`);
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    // SPEC §5: one file at a time, and the input is reset after selection.
    e.target.value = '';
    if (!file) return;
    const problem = precheck(file);
    if (problem) {
      setResult({ ok: false, text: problem });
      return;
    }
    setResult(null);
    setPercent(0);
    const form = new FormData();
    form.set('name', file.name);
    form.set('file', file, file.name);
    try {
      await api.upload(`/meetings/${meetingId}/appendices`, form, (loaded, total) =>
        setPercent(total > 0 ? Math.round((loaded / total) * 100) : 0),
      );
      setResult({ ok: true, text: T.appendices.uploaded });
      list.reload();
    } catch (err) {
      setResult({ ok: false, text: uploadError(err) });
    } finally {
      setPercent(null);
    }
  }

  return (
    <section className={`${card} ${stack}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.appendices.heading}</h2>
      {list.error && (
        <p className={errorText} role="alert">
          {list.error}
        </p>
      )}
      {!list.data && list.loading && <Spinner label={T.loading} />}
      {list.data?.value.length === 0 && <p className={mutedText}>{T.appendices.empty}</p>}
      {list.data && list.data.value.length > 0 && (
        <ul className={plainList} aria-label={T.appendices.heading}>
          {list.data.value.map((a) => (
            <li key={a.id}>{a.name}</li>
          ))}
        </ul>
      )}
      <div className={stack} style={{ position: 'relative', gap: '0.25rem' }}>
        <input
          id={`${id}-file`}
          ref={input}
          className={fileInput}
          type="file"
          accept={UPLOAD_LIMITS.acceptAttribute}
          aria-describedby={`${id}-limits`}
          disabled={percent !== null}
          onChange={(e) => void choose(e)}
        />
        <label htmlFor={`${id}-file`} className={button} style={{ alignSelf: 'flex-start' }}>
          {T.appendices.choose}
        </label>
        <span id={`${id}-limits`} className={mutedText}>
          {T.appendices.limits}
        </span>
      </div>
      {percent !== null && (
        <div role="status">
          <progress
            className={progress}
            max={100}
            value={percent}
            aria-label={T.appendices.uploading(percent)}
          />
          <span>{T.appendices.uploading(percent)}</span>
        </div>
      )}
      {result &&
        (result.ok ? (
          <p role="status">{result.text}</p>
        ) : (
          <p className={errorText} role="alert">
            {result.text}
          </p>
        ))}
    </section>
  );
}
