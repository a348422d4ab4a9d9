import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { CounsellorNote } from '../../contract/counsellor-notes.ts';
import { COUNSELLOR_NOTE_MAX_LENGTH } from '../../contract/limits.ts';
import { formatClockTimeTodayElseDate } from '../../client-kit/time/format-time.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { button, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import { composer, composerRow, meta, notesList } from './counsellor.styles.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';

/**
 * The notes counsellors kept about this conversation's child, newest first, and the field for one
 * more for the next counsellor (docs/decisions.md, "Notes for the next counsellor"). A failed save
 * keeps the text for another try.
 */
export function CounsellorNotes({ conversationId }: { conversationId: number }) {
  const api = useStaffApi();
  const [notes, setNotes] = useState<CounsellorNote[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveState, setSaveState] = useState<'idle' | 'saved' | string>('idle');
  const fieldId = useId();
  const counterId = useId();

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const { value } = await api.get<{ value: CounsellorNote[] }>(`/conversations/${conversationId}/notes`);
      setNotes(value);
    } catch (e) {
      setLoadError(e instanceof StaffApiError && e.status === 0 ? e.message : T.notesFailed);
    }
  }, [api, conversationId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function save(e: FormEvent) {
    e.preventDefault();
    const content = text.trim();
    if (!content || saving) return;
    setSaving(true);
    setSaveState('idle');
    try {
      const note = await api.post<CounsellorNote>(`/conversations/${conversationId}/notes`, {
        content,
      });
      setNotes((list) => [note, ...(list ?? [])]);
      setText('');
      setSaveState('saved');
    } catch (error) {
      setSaveState(saveFailureText(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    // Not a landmark: every open panel has one, and landmarks must differ by name.
    <div>
      <h4>{T.notesHeading}</h4>
      {loadError ? (
        <div role="alert">
          <p className={errorText}>{loadError}</p>
          <button type="button" className={`${button} ${secondaryButton}`} onClick={() => void load()}>
            {T.retry}
          </button>
        </div>
      ) : notes === null ? (
        <Spinner label={T.notesLoading} />
      ) : notes.length === 0 ? (
        <p className={mutedText}>{T.notesEmpty}</p>
      ) : (
        <ol className={notesList} aria-label={T.notesHeading} tabIndex={0}>
          {notes.map((note) => (
            <li key={note.id}>
              <span className={meta}>
                {T.noteBy(note.authorName, formatClockTimeTodayElseDate(note.createdDate))}
              </span>
              <p>{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form className={composer} onSubmit={(e) => void save(e)}>
        <label htmlFor={fieldId}>{T.noteField}</label>
        <textarea
          id={fieldId}
          value={text}
          maxLength={COUNSELLOR_NOTE_MAX_LENGTH}
          aria-describedby={counterId}
          onChange={(e) => setText(e.target.value)}
        />
        <div className={composerRow}>
          <span id={counterId} className={meta}>
            {T.counter(text.length, COUNSELLOR_NOTE_MAX_LENGTH)}
          </span>
          <button type="submit" className={button} disabled={saving || !text.trim()}>
            {saving ? T.noteSaving : T.noteSave}
          </button>
        </div>
        {saveState === 'saved' && <p role="status">{T.noteSaved}</p>}
        {saveState !== 'idle' && saveState !== 'saved' && (
          <p className={errorText} role="alert">
            {saveState}
          </p>
        )}
      </form>
    </div>
  );
}

/** Why a note was not saved, in the words the counsellor can act on. */
function saveFailureText(error: unknown): string {
  if (!(error instanceof StaffApiError)) return T.noteFailed;
  if (error.status === 0) return error.message;
  // A mail read from the queue is the counsellor's once they have answered it.
  if (error.status === 403) return T.noteNotHeld;
  return T.noteFailed;
}
