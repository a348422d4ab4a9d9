import { useRef, useState, type SyntheticEvent } from 'react';
import type { Result } from '../../worker/client/result.ts';
import { useApi } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { showToast } from '../dialogs/toast-store.ts';
import { expandable, fileList, linkButton, muted } from '../meeting-ui/meeting.styles.ts';
import { useAppendices, useMeetingMessages } from '../data/meeting-and-chat-hooks.ts';
import { saveBlob } from '../../client-kit/files/save-blob.ts';
import { TASK_TEXTS } from './texts.ts';
import { UploadButton } from './upload-button.tsx';

interface Pending {
  messageId: number;
}

/** The expandable 'Uppgifter': appendices, the user's own uploaded files and the upload button. */
export interface MeetingTasksProps {
  meetingId: number;
  canDelete?: boolean;
  /** Level of the sub-headings, one below the heading the section sits under. */
  headingLevel?: 2 | 3 | 4 | 5;
  /** The meeting list has not loaded the meeting's files yet: load them when opened. */
  loadOnOpen?: boolean;
}

export function MeetingTasks({
  meetingId,
  canDelete = true,
  headingLevel = 2,
  loadOnOpen = false,
}: MeetingTasksProps) {
  const Heading = `h${headingLevel}` as const;
  const api = useApi();
  const profile = useProfile();
  const appendices = useAppendices(meetingId) ?? [];
  const messages = useMeetingMessages(meetingId) ?? [];
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const loaded = useRef(false);

  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (!loadOnOpen || loaded.current || !event.currentTarget.open) return;
    loaded.current = true;
    api.loadMeeting(meetingId).catch((error: unknown) => console.error('loadMeeting', error));
  };

  const own = messages.filter(
    (m) => m.senderType === 'Participant' && (!profile || m.contactId === profile.contactId),
  );
  const files = own.flatMap((m) => m.files.map((f) => ({ message: m, file: f })));

  const download = async (load: () => Promise<Result<Blob, 'failed'>>, name: string) => {
    try {
      const blob = await load();
      if (blob.ok) saveBlob(blob.value, name);
      else showToast(TASK_TEXTS.downloadFailure, { kind: 'error' });
    } catch {
      showToast(TASK_TEXTS.downloadFailure, { kind: 'error' });
    }
  };

  const remove = async (messageId: number) => {
    try {
      if (!(await api.deleteMeetingMessage(meetingId, messageId)).ok) {
        showToast(TASK_TEXTS.deleteFailure, { kind: 'error' });
      }
    } catch {
      showToast(TASK_TEXTS.deleteFailure, { kind: 'error' });
    }
  };

  return (
    <details className={expandable} onToggle={onToggle}>
      <summary>{TASK_TEXTS.heading}</summary>
      <Heading>{TASK_TEXTS.appendices}</Heading>
      {appendices.length === 0 ? (
        <p className={muted}>{TASK_TEXTS.noAppendices}</p>
      ) : (
        <ul className={fileList}>
          {appendices.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className={linkButton}
                onClick={() =>
                  void download(() => api.downloadAppendix(meetingId, a.appendixId), a.file.name)
                }
              >
                {a.name}
                <span className="visually-hidden">, {TASK_TEXTS.download}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Heading>{TASK_TEXTS.myFiles}</Heading>
      {files.length === 0 ? (
        <p className={muted}>{TASK_TEXTS.noFiles}</p>
      ) : (
        <ul className={fileList}>
          {files.map(({ message, file }) => (
            <li key={`${message.id}:${file.name}`}>
              <button
                type="button"
                className={linkButton}
                onClick={() =>
                  void download(
                    () => api.downloadMeetingMessageFile(meetingId, message.id, file.name),
                    file.name,
                  )
                }
              >
                {file.name}
                <span className="visually-hidden">, {TASK_TEXTS.download}</span>
              </button>
              {canDelete && (
                <button
                  type="button"
                  className={linkButton}
                  aria-label={`${TASK_TEXTS.delete} ${file.name}`}
                  onClick={() => {
                    setPending({ messageId: message.id });
                    setConfirmOpen(true);
                  }}
                >
                  {TASK_TEXTS.delete}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <UploadButton meetingId={meetingId} />
      <ConfirmationDialog
        open={confirmOpen}
        text={TASK_TEXTS.deleteConfirm}
        onClose={() => setConfirmOpen(false)}
        onResult={(yes) => {
          if (yes && pending) void remove(pending.messageId);
          setPending(null);
        }}
      />
    </details>
  );
}
