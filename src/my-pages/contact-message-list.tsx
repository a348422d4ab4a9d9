import { Fragment, useState } from 'react';
import type { ContactMessageRow } from '../../worker/client/account.ts';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { Spinner } from '../shell/spinner.tsx';
import { secondaryButton } from '../styles/controls.ts';
import { MY_PAGES_TEXTS as T } from './texts.ts';
import { useContactMessages } from './use-account-lists.ts';
import { runWrite, when } from './write-feedback.ts';
import * as s from './my-pages.styles.ts';

/** SPEC §3 Contact message: 'Meddelanden från oss', read (processmessage) and delete (deletemessage). */
export function ContactMessageList() {
  const { rows, result } = useContactMessages();
  if (!rows?.length) {
    if (result === null) return <Spinner label={T.contactMessagesLoading} />;
    if (result !== 'ok' && result !== 'offline') return <p className={s.error}>{T.contactMessagesFailed}</p>;
    return <p className={s.notice}>{T.contactMessagesEmpty}</p>;
  }
  return (
    <>
      {result === 'offline' && <p className={s.notice}>{T.offline}</p>}
      <ul className={s.list} aria-label={T.contactMessages}>
        {rows.map((row) => (
          <ContactMessageItem key={row.Id} row={row} />
        ))}
      </ul>
    </>
  );
}

/** The text as plain React text (never HTML): its newlines become line breaks (SPEC §3). */
function MessageText({ text }: { text: string }) {
  const lines = text.split(/\r?\n/);
  return (
    <p>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {line}
        </Fragment>
      ))}
    </p>
  );
}

function ContactMessageItem({ row }: { row: ContactMessageRow }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const subjectId = `contact-message-${row.Id}`;
  const act = async (write: () => Promise<'ok' | 'offline' | 'failed'>) => {
    setBusy(true);
    await runWrite(write);
    setBusy(false);
  };

  return (
    <li className={row.IsRead ? s.card : `${s.card} ${s.unreadCard}`}>
      <h3 id={subjectId}>{row.Subject}</h3>
      <p className={s.meta}>
        <span className={row.IsRead ? `${s.badge} ${s.readBadge}` : s.badge}>
          {row.IsRead ? T.read : T.unread}
        </span>
        <span>{when(row.MessageDate)}</span>
      </p>
      <MessageText text={row.Text} />
      <div className={s.actions}>
        {!row.IsRead && (
          <button
            type="button"
            className={secondaryButton}
            disabled={busy}
            aria-describedby={subjectId}
            onClick={() => void act(() => api.processContactMessage(row.Id))}
          >
            {T.markRead}
          </button>
        )}
        <button
          type="button"
          className={secondaryButton}
          disabled={busy}
          aria-describedby={subjectId}
          onClick={() => setConfirming(true)}
        >
          {T.remove}
        </button>
      </div>
      <ConfirmationDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onResult={(confirmed) => {
          if (confirmed) void act(() => api.deleteContactMessage(row.Id));
        }}
        title={T.deleteMessageTitle}
        text={T.deleteMessageText}
        yes={T.deleteMessageYes}
        no={T.deleteMessageNo}
      />
    </li>
  );
}
