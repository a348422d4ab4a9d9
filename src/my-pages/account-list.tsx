import { useState, type ReactNode } from 'react';
import type { WriteResult } from '../../worker/client/result.ts';
import type { LoadOutcome } from '../../worker/client/result.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { secondaryButton } from '../styles/controls.ts';
import { MY_PAGES_TEXTS as T } from './texts.ts';
import { runWrite, when } from './write-feedback.ts';
import * as s from './my-pages.styles.ts';

/** The pieces notifications and contact messages share: the list, a row's card, status and buttons. */

interface ListTexts {
  label: string;
  loading: string;
  failed: string;
  empty: string;
}

/** A spinner until the first load answered; old rows stay visible offline, with a notice above them. */
export function AccountList<Row>({
  rows,
  result,
  texts,
  children,
}: {
  rows: Row[] | undefined;
  result: LoadOutcome | null;
  texts: ListTexts;
  /** Renders one row (with its key). */
  children: (row: Row) => ReactNode;
}) {
  if (!rows?.length) {
    if (result === null) return <Spinner label={texts.loading} />;
    if (result !== 'ok' && result !== 'offline') return <p className={s.error}>{texts.failed}</p>;
    return <p className={s.notice}>{texts.empty}</p>;
  }
  return (
    <>
      {result === 'offline' && <p className={s.notice}>{T.offline}</p>}
      <ul className={s.list} aria-label={texts.label}>
        {rows.map(children)}
      </ul>
    </>
  );
}

/** One write at a time per row: the row's buttons are disabled while it runs. */
export function useRowWrite() {
  const [busy, setBusy] = useState(false);
  const act = async (write: () => Promise<WriteResult>) => {
    setBusy(true);
    await runWrite(write);
    setBusy(false);
  };
  return { busy, act };
}

/** A row's card, marked while unread. */
export function RowCard({ read, children }: { read: boolean; children: ReactNode }) {
  return <li className={read ? s.card : `${s.card} ${s.unreadCard}`}>{children}</li>;
}

/** The read/unread badge and the date. */
export function ReadStatus({ read, date }: { read: boolean; date: string }) {
  return (
    <p className={s.meta}>
      <span className={read ? s.readBadge : s.unreadBadge}>{read ? T.read : T.unread}</span>
      <span>{when(date)}</span>
    </p>
  );
}

/** Mark as read (while unread) and delete; both buttons name the row through `describedBy`. */
export function RowActions({
  read,
  busy,
  describedBy,
  onMarkRead,
  onRemove,
}: {
  read: boolean;
  busy: boolean;
  describedBy: string;
  onMarkRead: () => void;
  onRemove: () => void;
}) {
  const button = (label: string, onClick: () => void) => (
    <button
      type="button"
      className={secondaryButton}
      disabled={busy}
      aria-describedby={describedBy}
      onClick={onClick}
    >
      {label}
    </button>
  );
  return (
    <div className={s.actions}>
      {!read && button(T.markRead, onMarkRead)}
      {button(T.remove, onRemove)}
    </div>
  );
}
