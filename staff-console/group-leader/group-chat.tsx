import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { GROUP_CHAT_MAX_LENGTH } from '../../contract/limits.ts';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import { useStaffApi } from '../api/staff-api.ts';
import { useEntitySubscription, useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import { useStaffSession } from '../session/staff-session.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, errorText, field, mutedText, noticeText } from '../ui/styles.ts';
import { bubble, chatList, meta, ownBubble, row, stack, textareaField } from './group-leader.styles.ts';
import { formatClockTime } from '../../client-kit/time/format-time.ts';
import { isOwnMessage } from './own-message.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { ChatMessages, Meeting } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';
import { isMeetingInProgress, isMeetingOver } from '../../contract/meeting-state.ts';

/** The meeting's group chat as the leader takes part in it: live messages and a message form. */
export function GroupChat({ meeting }: { meeting: Meeting }) {
  const api = useStaffApi();
  const { accountId } = useStaffSession();
  const id = useId();
  const messages = useStaffGet<ChatMessages>(`/meetings/${meeting.id}/messages`);
  const conversationId = meeting.conversation?.id ?? null;
  useEntitySubscription(conversationId === null ? null : entityKey('Conversation', conversationId));
  useHubEvent(HUB_EVENTS.messageCreated, (data) => {
    if ((data as { conversationId?: number } | null)?.conversationId === conversationId) messages.reload();
  });
  useHubReconnected(messages.reload);
  const { reload } = messages;
  // Starting the chat creates the conversation: read it once it exists.
  useEffect(() => {
    if (conversationId !== null) reload();
  }, [conversationId, reload]);

  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const count = messages.data?.value.length ?? 0;
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count]);

  const live = isMeetingInProgress(meeting) && conversationId !== null;
  const ended = isMeetingOver(meeting);
  const trimmed = text.trim();

  async function send(e: FormEvent) {
    e.preventDefault();
    if (!trimmed || sending) return;
    setSending(true);
    setFailure(null);
    try {
      await api.post(`/meetings/${meeting.id}/messages`, { content: trimmed });
      setText('');
      messages.reload();
    } catch (err) {
      setFailure(err instanceof Error ? `${T.chat.sendFailed}: ${err.message}` : T.chat.sendFailed);
    } finally {
      setSending(false);
    }
  }

  return (
    <section className={`${card} ${stack}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.chat.heading}</h2>
      {conversationId === null && !ended && <p className={mutedText}>{T.chat.notStarted}</p>}
      {live && count === 0 && <p className={noticeText}>{T.chat.soon}</p>}
      {messages.error && (
        <p className={errorText} role="alert">
          {messages.error}
        </p>
      )}
      {conversationId !== null && !messages.data && messages.loading && <Spinner label={T.loading} />}
      {conversationId !== null && messages.data && (
        <ol ref={list} className={chatList} aria-label={T.chat.list} aria-live="polite" tabIndex={0}>
          {messages.data.value.length === 0 && <li className={mutedText}>{T.chat.empty}</li>}
          {messages.data.value.map((m) => {
            const mine = isOwnMessage(m, accountId);
            const author = mine ? T.chat.me : (m.agentName ?? m.contactName ?? '');
            return (
              <li key={m.id} className={`${bubble} ${mine ? ownBubble : ''}`}>
                <span className={meta}>
                  {author} {formatClockTime(m.loggedDate)}
                </span>
                <p>{m.message}</p>
              </li>
            );
          })}
        </ol>
      )}
      {ended && conversationId !== null && (
        <p role="status" className={noticeText}>
          {T.chat.ended}
        </p>
      )}
      {live && (
        <form onSubmit={(e) => void send(e)} className={stack}>
          <div className={`${field} ${textareaField}`} style={{ marginBottom: 0 }}>
            <label htmlFor={`${id}-input`}>{T.chat.input}</label>
            <textarea
              id={`${id}-input`}
              value={text}
              maxLength={GROUP_CHAT_MAX_LENGTH}
              placeholder={T.chat.placeholder}
              aria-describedby={`${id}-counter`}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // Enter sends, Shift+Enter breaks the line, as in the participants' chat.
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
            />
            <span id={`${id}-counter`} className={mutedText}>
              {T.chat.counter(text.length, GROUP_CHAT_MAX_LENGTH)}
            </span>
          </div>
          {failure && (
            <p className={errorText} role="alert">
              {failure}
            </p>
          )}
          <div className={row}>
            <button type="submit" className={button} disabled={!trimmed || sending}>
              {sending ? T.chat.sending : T.chat.send}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
