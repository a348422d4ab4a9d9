import { Link } from 'wouter';
import { parseEntityKey } from '../../contract/hub.ts';
import type { NotificationRow } from '../../worker/client/account.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { mailPaths } from '../../contract/mail-paths.ts';
import { AccountList, ReadStatus, RowActions, RowCard, useRowWrite } from './account-list.tsx';
import { MY_PAGES_TEXTS as T } from './texts.ts';
import { useNotifications } from './use-account-lists.ts';

const LIST_TEXTS = {
  label: T.notifications,
  loading: T.notificationsLoading,
  failed: T.notificationsFailed,
  empty: T.notificationsEmpty,
};

/** My pages '#notiser': the last 30 days of notifications, mark as read (process) and delete. */
export function NotificationList() {
  const { rows, result } = useNotifications();
  return (
    <AccountList rows={rows} result={result} texts={LIST_TEXTS}>
      {(row) => <NotificationItem key={row.id} row={row} />}
    </AccountList>
  );
}

function NotificationItem({ row }: { row: NotificationRow }) {
  const api = useApi();
  const { busy, act } = useRowWrite();
  const textId = `notification-${row.id}`;
  const entity = parseEntityKey(row.entity);
  const mail = mailPaths(useConfig().features);

  return (
    <RowCard read={row.isProcessed}>
      <ReadStatus read={row.isProcessed} date={row.createdDate} />
      <p id={textId}>{T.notificationTexts[row.notificationType] ?? T.notificationFallback}</p>
      {entity?.type === 'Conversation' && (
        <p>
          <Link href={mail.thread(entity.id)}>{T.openConversation}</Link>
        </p>
      )}
      <RowActions
        read={row.isProcessed}
        busy={busy}
        describedBy={textId}
        onMarkRead={() => void act(() => api.processNotification(row.id))}
        onRemove={() => void act(() => api.deleteNotification(row.id))}
      />
    </RowCard>
  );
}
