import { Fragment, useState } from 'react';
import type { ContactMessageRow } from '../../worker/client/account.ts';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { AccountList, ReadStatus, RowActions, RowCard, useRowWrite } from './account-list.tsx';
import { MY_PAGES_TEXTS as T } from './texts.ts';
import { useContactMessages } from './use-account-lists.ts';

const LIST_TEXTS = {
  label: T.contactMessages,
  loading: T.contactMessagesLoading,
  failed: T.contactMessagesFailed,
  empty: T.contactMessagesEmpty,
};

/** SPEC §3 Contact message: 'Meddelanden från oss', read (processmessage) and delete (deletemessage). */
export function ContactMessageList() {
  const { rows, result } = useContactMessages();
  return (
    <AccountList rows={rows} result={result} texts={LIST_TEXTS}>
      {(row) => <ContactMessageItem key={row.Id} row={row} />}
    </AccountList>
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
  const { busy, act } = useRowWrite();
  const [confirming, setConfirming] = useState(false);
  const subjectId = `contact-message-${row.Id}`;

  return (
    <RowCard read={row.IsRead}>
      <h3 id={subjectId}>{row.Subject}</h3>
      <ReadStatus read={row.IsRead} date={row.MessageDate} />
      <MessageText text={row.Text} />
      <RowActions
        read={row.IsRead}
        busy={busy}
        describedBy={subjectId}
        onMarkRead={() => void act(() => api.processContactMessage(row.Id))}
        onRemove={() => setConfirming(true)}
      />
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
    </RowCard>
  );
}
