import { useId, useRef, useState, type ChangeEvent } from 'react';
import { UPLOAD_LIMITS } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { useUploads } from '../data/meeting-and-chat-hooks.ts';
import { muted } from '../meeting-ui/meeting.styles.ts';
import { secondaryButton } from '../styles/controls.ts';
import { TASK_TEXTS } from './texts.ts';

/** One file at a time; the input is reset after each selection (SPEC §5 Homework upload). */
export function UploadButton({ meetingId }: { meetingId: number }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const limitsId = useId();
  const [busy, setBusy] = useState(false);
  const uploads = useUploads(meetingId) ?? [];
  const current = uploads.find((u) => u.status === 'uploading');

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      const row = await api.uploadHomework(meetingId, file, file.name);
      if (row.ok) {
        showToast(TASK_TEXTS.uploadSuccess, { title: TASK_TEXTS.uploadSuccessTitle, kind: 'success' });
      } else {
        const text =
          row.code === 'too_large'
            ? TASK_TEXTS.uploadTooLarge
            : row.code === 'unsupported_type'
              ? TASK_TEXTS.uploadWrongType
              : TASK_TEXTS.uploadFailure;
        showToast(text, { title: TASK_TEXTS.uploadFailureTitle, kind: 'error' });
      }
    } catch {
      showToast(TASK_TEXTS.uploadFailure, { title: TASK_TEXTS.uploadFailureTitle, kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <input
        ref={input}
        type="file"
        hidden
        accept={UPLOAD_LIMITS.acceptAttribute}
        onChange={(e) => void onChange(e)}
      />
      <button
        type="button"
        className={secondaryButton}
        disabled={busy}
        aria-describedby={limitsId}
        onClick={() => input.current?.click()}
      >
        {TASK_TEXTS.upload}
      </button>
      <p id={limitsId} className={muted}>
        {TASK_TEXTS.limits}
      </p>
      {current && (
        <label>
          {TASK_TEXTS.uploading} {current.fileName}
          <progress max={current.total || 1} value={current.loaded} />
        </label>
      )}
    </div>
  );
}
