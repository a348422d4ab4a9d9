import { useId, useState } from 'react';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import { listItem, plainList, row, stack } from './group-leader.styles.ts';
import { useDownload } from './download-file.ts';
import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { PrivateMessage, ValueList } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';

/** Participants' private messages and uploaded homework of one meeting, with file downloads. */
export function PrivateMessages({ meetingId }: { meetingId: number }) {
  const id = useId();
  const list = useStaffGet<ValueList<PrivateMessage>>(`/meetings/${meetingId}/private-messages`);
  const download = useDownload();
  const [failure, setFailure] = useState<string | null>(null);

  async function save(messageId: number, fileName: string) {
    setFailure(null);
    try {
      await download(`/meetings/${meetingId}/files/${messageId}/${encodeURIComponent(fileName)}`, fileName);
    } catch {
      setFailure(T.privateMessages.downloadFailed);
    }
  }

  return (
    <section className={`${card} ${stack}`} aria-labelledby={`${id}-title`}>
      <div className={row} style={{ justifyContent: 'space-between' }}>
        <h2 id={`${id}-title`}>{T.privateMessages.heading}</h2>
        <button type="button" className={`${button} ${secondaryButton}`} onClick={list.reload}>
          {T.refresh}
        </button>
      </div>
      {list.error && (
        <p className={errorText} role="alert">
          {list.error}
        </p>
      )}
      {failure && (
        <p className={errorText} role="alert">
          {failure}
        </p>
      )}
      {!list.data && list.loading && <Spinner label={T.loading} />}
      {list.data?.value.length === 0 && <p className={mutedText}>{T.privateMessages.empty}</p>}
      {list.data && list.data.value.length > 0 && (
        <ul className={plainList} aria-label={T.privateMessages.heading}>
          {list.data.value.map((m) => (
            <li key={m.id} className={listItem} style={{ flexDirection: 'column', alignItems: 'stretch' }}>
              <div>
                <strong>{T.privateMessages.from(m.senderName)}</strong>{' '}
                <span className={mutedText}>{formatDateAndClockTime(m.createdDate)}</span>
              </div>
              {m.text && <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{m.text}</p>}
              {m.files.length > 0 && (
                <div className={row}>
                  {m.files.map((f) => (
                    <button
                      key={f.name}
                      type="button"
                      className={`${button} ${secondaryButton}`}
                      onClick={() => void save(m.id, f.name)}
                    >
                      {T.privateMessages.download(f.name)}
                    </button>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
