import { useId, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { NoticeAnswer } from '../../worker/client/api.ts';
import { useOptionalConfig } from '../config/runtime-config.tsx';
import { useApi, useDb } from '../data/index.ts';
import { browserPush, keepPushSubscription } from '../pwa/web-push.ts';
import * as s from '../chat-window/chat-window.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';

/** The browser can still be asked (not yet allowed or refused) for system notifications. */
const mayAsk = () => typeof Notification !== 'undefined' && Notification.permission === 'default';

/** The question and its two answers, in the words of the screen that asks. */
export interface NoticeQuestionTexts {
  noticeQuestion: string;
  noticeYes: string;
  noticeNo: string;
}

/**
 * In the queue, once per browser: would the child like a notice when it is their turn? (After a
 * mail, the same question in the mail's words, `texts`.) Only 'Ja, tack' asks the browser (which
 * needs the tap itself); the answer is kept by the worker either way. Allowed, the browser is also
 * subscribed to Web Push, so the notice comes with the app closed too (src/pwa/web-push.ts).
 */
export function NoticeQuestion({ texts = T }: { texts?: NoticeQuestionTexts }) {
  const api = useApi();
  const production = useOptionalConfig()?.production ?? false;
  const db = useDb();
  const id = useId();
  const runtime = useLiveQuery(async () => (await db.runtime.get('current')) ?? null, [db]);
  const [answered, setAnswered] = useState(false);
  if (answered || runtime === undefined || runtime?.noticeAnswer !== undefined || !mayAsk()) return null;

  const answer = (choice: NoticeAnswer) => {
    // Asked before anything is awaited: the browser lets only a tap ask.
    const asked = choice === 'yes' ? Notification.requestPermission() : null;
    setAnswered(true);
    void asked
      ?.then((permission) =>
        permission === 'granted' ? keepPushSubscription(api, browserPush(production)) : undefined,
      )
      .catch((error: unknown) => console.warn('Notification permission not asked', error));
    api.answerNoticeQuestion(choice).catch((error: unknown) => console.error('Answer not kept', error));
  };

  return (
    <div className={s.choices} role="group" aria-labelledby={id}>
      <p id={id}>{texts.noticeQuestion}</p>
      <button type="button" className={primaryButton} onClick={() => answer('yes')}>
        {texts.noticeYes}
      </button>
      <button type="button" className={secondaryButton} onClick={() => answer('no')}>
        {texts.noticeNo}
      </button>
    </div>
  );
}
