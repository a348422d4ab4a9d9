import { useEffect, useState } from 'react';
import { formatCalendarDate, formatClockTime } from '../../client-kit/time/format-time.ts';
import { Link } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useApi } from '../data/index.ts';
import { useLoadWhenBack } from '../data/live-queries.ts';
import { mailPaths } from '../../contract/mail-paths.ts';
import { ConversationHistoryWindow } from '../historic-chat/conversation-history-window.tsx';
import { HistoricChatWindow } from '../historic-chat/historic-chat-window.tsx';
import { useMeeting } from '../data/meeting-and-chat-hooks.ts';
import { StarIcon } from '../ui-kit/icons.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { primaryButton } from '../styles/controls.ts';
import {
  chatHistory,
  hasUnreadMessages,
  isFavorite,
  lastActivity,
  mailThreads,
} from '../conversation-ui/conversation-lists.ts';
import { useConversations, usePendingMails } from './hooks.ts';
import { MY_CONVERSATIONS_TEXTS as T } from './texts.ts';
import * as s from './my-conversations.styles.ts';

const day = formatCalendarDate;

/** My pages: the child's mail threads and chat history (rendered inside the my-pages page). */
export function MyConversations() {
  const api = useApi();
  const rows = useConversations();
  const pending = usePendingMails();
  const result = useLoadWhenBack(() => api.loadConversations('mine'));
  const [openId, setOpenId] = useState<number | null>(null);
  const open = openId === null ? undefined : rows?.find((c) => c.id === openId);

  const config = useConfig();
  const groupStyle = isGroupStyle(config);
  const mail = mailPaths(config.features);
  const threads = mailThreads(rows ?? []);
  const history = chatHistory(rows ?? []);
  const loading = result === null && (rows === undefined || rows.length === 0);

  return (
    <>
      {/* Group participants (personal codes) write to their leaders from the meeting and have no
          mail: group support's my pages show only what it offers. */}
      {!groupStyle && (
        <section className={s.section} aria-labelledby="my-mail-heading">
          <h2 id="my-mail-heading">{T.mailHeading}</h2>
          <Link href={mail.newMail} className={primaryButton}>
            {T.newPost}
          </Link>
          {result === 'offline' && <p role="status">{T.offline}</p>}
          {(result === 'failed' || result === 'forbidden') && <p role="alert">{T.loadFailed}</p>}
          {loading ? (
            <Spinner label={T.loading} />
          ) : threads.length === 0 && !pending?.length ? (
            <p>{T.noMail}</p>
          ) : (
            <ul className={s.list} aria-label={T.mailHeading}>
              {pending?.map((mail) => (
                <li key={mail.clientId} className={s.item}>
                  <span className={s.itemLink}>{mail.subject || T.noSubject}</span>
                  <span className={s.pending}>{mail.status}</span>
                </li>
              ))}
              {threads.map((c) => (
                <li key={c.id} className={s.item}>
                  <Link href={mail.thread(c.id)} className={s.itemLink}>
                    {c.subject || T.noSubject}
                  </Link>
                  <span className={s.date}>{day(lastActivity(c))}</span>
                  {hasUnreadMessages(c) && <span className={s.badge}>{T.unread}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section id="historik" className={s.section} aria-labelledby="my-history-heading">
        <h2 id="my-history-heading">{T.historyHeading}</h2>
        {groupStyle && result === 'offline' && <p role="status">{T.offline}</p>}
        {groupStyle && (result === 'failed' || result === 'forbidden') && <p role="alert">{T.loadFailed}</p>}
        {loading ? (
          groupStyle && <Spinner label={T.loading} />
        ) : history.length === 0 ? (
          <p>{T.noHistory}</p>
        ) : (
          <ul className={s.list} aria-label={T.historyHeading}>
            {history.map((c) => (
              <li key={c.id} className={s.item}>
                <button type="button" className={s.historyButton} onClick={() => setOpenId(c.id)}>
                  {T.chatFrom(day(c.loggedDate))}
                </button>
                <span className={s.date}>{T.at(formatClockTime(c.loggedDate))}</span>
                {isFavorite(c) && (
                  <span className={s.star}>
                    <StarIcon filled />
                    <span className="visually-hidden">{T.favourite}</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {openId !== null &&
        (open?.meetingId != null ? (
          <GroupChatHistory meetingId={open.meetingId} onClose={() => setOpenId(null)} />
        ) : (
          <ConversationHistoryWindow conversationId={openId} onClose={() => setOpenId(null)} />
        ))}
    </>
  );
}

/**
 * A meeting's ended group chat, opened from the history: the meeting page's own historic window,
 * once the meeting is on the device (it is fetched when it is not).
 */
function GroupChatHistory({ meetingId, onClose }: { meetingId: number; onClose: () => void }) {
  const api = useApi();
  const meeting = useMeeting(meetingId);
  const [failed, setFailed] = useState(false);
  const missing = meeting === null;
  useEffect(() => {
    if (!missing) return;
    let current = true;
    api
      .loadMeeting(meetingId)
      .then((result) => current && setFailed(!result.ok))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [api, missing, meetingId]);
  if (!meeting) return failed ? <p role="alert">{T.loadFailed}</p> : <Spinner label={T.loading} />;
  return <HistoricChatWindow meeting={meeting} onClose={onClose} />;
}
