import type { ReactNode } from 'react';
import { formatCalendarDate } from '../../client-kit/time/format-time.ts';
import { Modal } from '../dialogs/modal.tsx';
import { secondaryButton } from '../styles/controls.ts';
import type { ChatEntry } from '../chat-window/chat-messages.ts';
import { MessageList } from '../chat-window/message-list.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { HISTORIC_CHAT_TEXTS as T } from './texts.ts';
import { footer, historyList, toolbar, toolbarEnd } from './historic-chat-window.styles.ts';

export interface HistoricChatViewProps {
  title: string;
  /** undefined while the cached rows are still being read. */
  entries: readonly ChatEntry[] | undefined;
  /** The older rows not read yet (src/data/chat-pages.ts). */
  older?: { count: number; load(): void } | undefined;
  date: string;
  onClose: () => void;
  /** The favourite star and trash of non-group chats. */
  actions?: ReactNode;
}

/** SPEC §2 Historic chat window: read-only modal, back button, footer 'Chatt från yyyy-MM-dd'. */
export function HistoricChatView({ title, entries, older, date, onClose, actions }: HistoricChatViewProps) {
  return (
    <Modal open onClose={onClose} title={title} titleSize="small" colour="chat" extraWide hideClose>
      <div className={toolbar}>
        <button type="button" className={secondaryButton} onClick={onClose}>
          {T.back}
        </button>
        {actions && <div className={toolbarEnd}>{actions}</div>}
      </div>
      {entries === undefined ? (
        <Spinner label={T.loading} />
      ) : entries.length === 0 ? (
        <p>{T.empty}</p>
      ) : (
        <MessageList entries={entries} className={historyList} older={older} />
      )}
      <p className={footer}>{T.footer(formatCalendarDate(date))}</p>
    </Modal>
  );
}
