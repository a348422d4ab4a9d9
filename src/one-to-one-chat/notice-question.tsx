import { useId, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { NoticeAnswer } from '../../worker/client/api.ts';
import { useApi, useDb } from '../data/index.ts';
import * as s from '../chat-window/chat-window.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';

/** The browser can still be asked (not yet allowed or refused) for system notifications. */
const mayAsk = () => typeof Notification !== 'undefined' && Notification.permission === 'default';

/**
 * In the queue, once per browser: would the child like a notice when it is their turn? Only 'Ja,
 * tack' asks the browser (which needs the tap itself); the answer is kept by the worker either way.
 */
export function NoticeQuestion() {
  const api = useApi();
  const db = useDb();
  const id = useId();
  const runtime = useLiveQuery(async () => (await db.runtime.get('current')) ?? null, [db]);
  const [answered, setAnswered] = useState(false);
  if (answered || runtime === undefined || runtime?.noticeAnswer !== undefined || !mayAsk()) return null;

  const answer = (choice: NoticeAnswer) => {
    // Asked before anything is awaited: the browser lets only a tap ask.
    const asked = choice === 'yes' ? Notification.requestPermission() : null;
    setAnswered(true);
    void asked?.catch((error: unknown) => console.warn('Notification permission not asked', error));
    api.answerNoticeQuestion(choice).catch((error: unknown) => console.error('Answer not kept', error));
  };

  return (
    <div className={s.choices} role="group" aria-labelledby={id}>
      <p id={id}>{T.noticeQuestion}</p>
      <button type="button" className={primaryButton} onClick={() => answer('yes')}>
        {T.noticeYes}
      </button>
      <button type="button" className={secondaryButton} onClick={() => answer('no')}>
        {T.noticeNo}
      </button>
    </div>
  );
}
