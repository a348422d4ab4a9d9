import { useEffect, useId, useRef, useState } from 'react';
import { MESSAGE_MAX_LENGTH_BY_CHANNEL } from '../../contract/limits.ts';
import { unreachable, type ConversationMessageWire } from '../../contract/conversations.ts';
import { authorParty, isStaffAuthor } from '../../contract/author-kinds.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { ChatTimeLeft } from '../../client-kit/chat-limit/time-left.tsx';
import { button, dangerButton, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import { ChildPropertiesList } from './child-properties-list.tsx';
import { CounsellorNotes } from './counsellor-notes.tsx';
import { StaffConfirmDialog } from '../ui/confirm-dialog.tsx';
import {
  bubble,
  failed,
  infoBubble,
  mailPanel,
  messageList,
  meta,
  mine,
  panel,
  panelHead,
  timeLeft,
  typing,
} from './counsellor.styles.ts';
import { formatClockTimeTodayElseDate } from '../../client-kit/time/format-time.ts';
import { MessageComposer } from './message-composer.tsx';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import { isFinal } from '../../contract/conversation-state.ts';
import type { QueueItem } from './types.ts';
import { useConversationMessages } from './use-conversation-messages.ts';

interface Pending {
  key: string;
  content: string;
  status: 'sending' | 'failed';
}

/** The child's messages carry the SPEC §3 author label ('Tjej, 14 år'), the counsellor's own 'Du'. */
function authorOf(m: ConversationMessageWire, childLabel: string): string {
  const party = authorParty(m.authorKind);
  switch (party) {
    case 'contact':
      return childLabel;
    case 'staff':
      return T.me;
    case 'notice':
      return T.system;
    default:
      return unreachable(party);
  }
}

/** Staff's messages are on the console user's own side; notices are set apart. */
function bubbleClassOf(m: ConversationMessageWire): string {
  const party = authorParty(m.authorKind);
  switch (party) {
    case 'staff':
      return `${bubble} ${mine}`;
    case 'contact':
      return bubble;
    case 'notice':
      return `${bubble} ${infoBubble}`;
    default:
      return unreachable(party);
  }
}

/** One open chat or mail thread: messages, the child's typing, answer, and ending the chat. */
export function ConversationPanel({
  conversation,
  title,
  onClose,
  onChanged,
}: {
  conversation: QueueItem;
  title: string;
  onClose(): void;
  onChanged(): void;
}) {
  const api = useStaffApi();
  const childLabel = conversation.authorLabel;
  const isChat = conversation.systemType === 'chat';
  const ended = isFinal(conversation);
  const { messages, error, reload, add, childTyping } = useConversationMessages(conversation.id);
  const [outbox, setOutbox] = useState<Pending[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [resolveError, setResolveError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const titleId = useId();

  const count = (messages?.length ?? 0) + outbox.length;
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count, childTyping]);

  async function deliver(item: Pending) {
    setOutbox((list) => list.map((p) => (p.key === item.key ? { ...p, status: 'sending' } : p)));
    try {
      const message = await api.post<ConversationMessageWire>(`/conversations/${conversation.id}/messages`, {
        content: item.content,
      });
      add(message);
      setOutbox((list) => list.filter((p) => p.key !== item.key));
      if (!isChat) onChanged();
    } catch {
      setOutbox((list) => list.map((p) => (p.key === item.key ? { ...p, status: 'failed' } : p)));
    }
  }

  function send(content: string) {
    const item: Pending = { key: crypto.randomUUID(), content, status: 'sending' };
    setOutbox((list) => [...list, item]);
    void deliver(item);
  }

  async function resolve() {
    setConfirming(false);
    setResolving(true);
    setResolveError(null);
    try {
      await api.post(`/conversations/${conversation.id}/resolve`);
      onChanged();
    } catch (e) {
      setResolveError(e instanceof StaffApiError && e.status === 0 ? e.message : T.resolveFailed);
    } finally {
      setResolving(false);
    }
  }

  return (
    <article
      className={isChat ? panel : `${panel} ${mailPanel}`}
      aria-labelledby={titleId}
      data-testid="conversation-panel"
    >
      <div className={panelHead}>
        <h3 id={titleId}>{title}</h3>
        {isChat && (
          <span role="status" data-testid="conversation-status">
            {ended ? T.ended : T.active}
          </span>
        )}
        {isChat && !ended && (
          <ChatTimeLeft limitEndsAt={conversation.limitEndsAt} text={T.timeLeft} className={timeLeft} />
        )}
      </div>
      <ChildPropertiesList properties={conversation.properties} />
      <CounsellorNotes conversationId={conversation.id} />
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={`${button} ${secondaryButton}`} onClick={reload}>
            {T.retry}
          </button>
        </div>
      )}
      {messages === null && !error ? (
        <Spinner label={T.messagesLoading} />
      ) : (
        <ol ref={listRef} className={messageList} aria-label={T.messages} tabIndex={0}>
          {messages?.length === 0 && outbox.length === 0 && (
            <li className={`${bubble} ${infoBubble}`}>{T.noMessages}</li>
          )}
          {messages?.map((m) => (
            <li key={m.id} className={bubbleClassOf(m)}>
              <span className={meta}>
                {authorOf(m, childLabel)} · {formatClockTimeTodayElseDate(m.loggedDate)}
              </span>
              <p>{m.message}</p>
              {isStaffAuthor(m.authorKind) && <span className={meta}>{T.sent}</span>}
            </li>
          ))}
          {outbox.map((p) => (
            <li key={p.key} className={`${bubble} ${mine}`}>
              <span className={meta}>{T.me}</span>
              <p>{p.content}</p>
              {p.status === 'sending' ? (
                <span className={meta}>{T.sending}</span>
              ) : (
                <span className={`${meta} ${failed}`} role="alert">
                  {T.sendFailed}{' '}
                  <button
                    type="button"
                    className={`${button} ${secondaryButton}`}
                    onClick={() => void deliver(p)}
                  >
                    {T.resend}
                  </button>
                </span>
              )}
            </li>
          ))}
          {ended && isChat && <li className={`${bubble} ${infoBubble}`}>{T.ended}</li>}
        </ol>
      )}
      {isChat && (
        <p className={typing} aria-live="polite">
          {childTyping && !ended ? T.childTyping : ''}
        </p>
      )}
      {!ended && (
        <MessageComposer
          label={isChat ? T.message : T.answer}
          disabled={false}
          enterSends={isChat}
          maxLength={MESSAGE_MAX_LENGTH_BY_CHANNEL[isChat ? 'chat' : 'mail']}
          onSend={send}
          onTyping={
            isChat
              ? () => void api.post(`/conversations/${conversation.id}/typing`).catch(() => undefined)
              : undefined
          }
        />
      )}
      {resolveError && (
        <p className={errorText} role="alert">
          {resolveError}
        </p>
      )}
      <div className={panelHead}>
        {isChat && !ended ? (
          <button
            type="button"
            className={`${button} ${dangerButton}`}
            disabled={resolving}
            onClick={() => setConfirming(true)}
          >
            {resolving ? T.resolving : T.resolve}
          </button>
        ) : (
          <button
            type="button"
            className={`${button} ${secondaryButton}`}
            aria-label={T.closeLabel(title)}
            onClick={onClose}
          >
            {T.close}
          </button>
        )}
        {!isChat && (
          <span className={mutedText}>{formatClockTimeTodayElseDate(conversation.loggedDate)}</span>
        )}
      </div>
      <StaffConfirmDialog
        open={confirming}
        title={T.resolveConfirmTitle}
        text={T.resolveConfirmText}
        yes={T.resolveConfirmYes}
        no={T.cancel}
        danger
        onAnswer={(yes) => (yes ? void resolve() : setConfirming(false))}
      />
    </article>
  );
}
