import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { trustedHtml } from '../../client-kit/security/trusted-types.ts';
import { chatTextToHtml } from '../group-support/chat-text.ts';
import { useApi } from '../data/index.ts';
import { secondaryButton } from '../styles/controls.ts';
import { sendStatusText, type ChatEntry } from './chat-messages.ts';
import * as s from './chat-window.styles.ts';
import { CHAT_TEXTS } from './texts.ts';
import { SCROLL_TO_BOTTOM_DELAY_MS } from '../../contract/timings.ts';
import { NEW_MESSAGE_PROMPT_PX } from '../../contract/limits.ts';
export { SCROLL_TO_BOTTOM_DELAY_MS };

export { NEW_MESSAGE_PROMPT_PX };

function authorLabel(entry: ChatEntry): string {
  if (entry.label) return entry.label;
  if (entry.authorType === 'me') return CHAT_TEXTS.me;
  if (entry.authorType === 'info') return CHAT_TEXTS.info;
  return entry.authorName;
}

/** 'Försök igen' and 'Ta bort' under one's own message that the server refused. */
function RefusedActions({ clientId, messageId }: { clientId: string; messageId: string }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const act = (command: (id: string) => Promise<unknown>) => {
    setBusy(true);
    void command(clientId).finally(() => setBusy(false));
  };
  return (
    <span className={s.refusedActions}>
      <button
        type="button"
        className={s.textButton}
        aria-describedby={messageId}
        disabled={busy}
        onClick={() => act(api.retryChatMessage)}
      >
        {CHAT_TEXTS.retry}
      </button>
      <button
        type="button"
        className={s.textButton}
        aria-describedby={messageId}
        disabled={busy}
        onClick={() => act(api.removeChatMessage)}
      >
        {CHAT_TEXTS.remove}
      </button>
    </span>
  );
}

function Message({ entry }: { entry: ChatEntry }) {
  const status = sendStatusText(entry);
  const messageId = `message-${entry.key}`;
  const kind =
    entry.authorType === 'me'
      ? s.mine
      : entry.authorType === 'info' || entry.authorType === 'bot'
        ? s.info
        : '';
  return (
    <li className={`${s.bubble} ${kind}`}>
      {(entry.label || (!entry.sameAuthorAsPreviousMessage && entry.authorType !== 'info')) && (
        <span className={s.author}>{authorLabel(entry)}</span>
      )}
      <p id={messageId} dangerouslySetInnerHTML={{ __html: trustedHtml(chatTextToHtml(entry.content)) }} />
      {entry.createdAfterClosedConversation && <span className={s.status}>{CHAT_TEXTS.afterClosed}</span>}
      {status && (
        <span className={`${s.status} ${entry.sendStatus === 'failed' ? s.failed : ''}`} title={status}>
          {status}
        </span>
      )}
      {entry.sendStatus === 'failed' && entry.clientId && (
        <RefusedActions clientId={entry.clientId} messageId={messageId} />
      )}
    </li>
  );
}

/** The message list; keeps to the bottom unless the user scrolled up (then a prompt shows). */
export function MessageList({ entries }: { entries: readonly ChatEntry[] }) {
  const list = useRef<HTMLUListElement>(null);
  const [away, setAway] = useState(false);
  const awayRef = useRef(false);

  const scrollToBottom = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  useLayoutEffect(() => {
    if (awayRef.current) return;
    const timer = setTimeout(scrollToBottom, SCROLL_TO_BOTTOM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [entries.length]);

  useEffect(() => scrollToBottom(), []);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    awayRef.current = distance > NEW_MESSAGE_PROMPT_PX;
    setAway(awayRef.current);
  };

  return (
    <ul
      ref={list}
      className={s.messages}
      aria-label={CHAT_TEXTS.messages}
      aria-live="polite"
      onScroll={onScroll}
      tabIndex={0}
    >
      {entries.map((entry) => (
        <Message key={entry.key} entry={entry} />
      ))}
      {away && (
        <li className={s.newMessages}>
          <button type="button" className={secondaryButton} onClick={scrollToBottom}>
            {CHAT_TEXTS.showNewMessages}
          </button>
        </li>
      )}
    </ul>
  );
}
