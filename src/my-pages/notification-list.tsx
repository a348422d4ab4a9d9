import { useState } from 'react';
import { Link } from 'wouter';
import { parseEntityKey } from '../../contract/hub.ts';
import type { NotificationRow } from '../../worker/client/account.ts';
import { useApi } from '../data/index.ts';
import { Spinner } from '../shell/spinner.tsx';
import { secondaryButton } from '../styles/controls.ts';
import { MY_PAGES_TEXTS as T } from './texts.ts';
import { useNotifications } from './use-account-lists.ts';
import { runWrite, when } from './write-feedback.ts';
import * as s from './my-pages.styles.ts';

/** My pages '#notiser': the last 30 days of notifications, mark as read (process) and delete. */
export function NotificationList() {
  const { rows, result } = useNotifications();
  if (!rows?.length) {
    if (result === null) return <Spinner label={T.notificationsLoading} />;
    if (result !== 'ok' && result !== 'offline') return <p className={s.error}>{T.notificationsFailed}</p>;
    return <p className={s.notice}>{T.notificationsEmpty}</p>;
  }
  return (
    <>
      {result === 'offline' && <p className={s.notice}>{T.offline}</p>}
      <ul className={s.list} aria-label={T.notifications}>
        {rows.map((row) => (
          <NotificationItem key={row.id} row={row} />
        ))}
      </ul>
    </>
  );
}

function NotificationItem({ row }: { row: NotificationRow }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const textId = `notification-${row.id}`;
  const entity = parseEntityKey(row.entity);
  const act = async (write: () => Promise<'ok' | 'offline' | 'failed'>) => {
    setBusy(true);
    await runWrite(write);
    setBusy(false);
  };

  return (
    <li className={row.isProcessed ? s.card : `${s.card} ${s.unreadCard}`}>
      <p className={s.meta}>
        <span className={row.isProcessed ? `${s.badge} ${s.readBadge}` : s.badge}>
          {row.isProcessed ? T.read : T.unread}
        </span>
        <span>{when(row.createdDate)}</span>
      </p>
      <p id={textId}>{T.notificationTexts[row.notificationType] ?? T.notificationFallback}</p>
      {entity?.type === 'Conversation' && (
        <p>
          <Link href={`/mina-sidor/inlagg/${entity.id}`}>{T.openConversation}</Link>
        </p>
      )}
      <div className={s.actions}>
        {!row.isProcessed && (
          <button
            type="button"
            className={secondaryButton}
            disabled={busy}
            aria-describedby={textId}
            onClick={() => void act(() => api.processNotification(row.id))}
          >
            {T.markRead}
          </button>
        )}
        <button
          type="button"
          className={secondaryButton}
          disabled={busy}
          aria-describedby={textId}
          onClick={() => void act(() => api.deleteNotification(row.id))}
        >
          {T.remove}
        </button>
      </div>
    </li>
  );
}
