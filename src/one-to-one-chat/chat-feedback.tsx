import { useId, useState } from 'react';
import { FEEDBACK_TEXT_MAX_LENGTH, type FeedbackAnswer } from '../../contract/chat-feedback.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { useApi } from '../data/index.ts';
import * as chat from '../chat-window/chat-window.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import * as s from './chat-feedback.styles.ts';
import { CHILD_CHAT_TEXTS } from './texts.ts';

const T = CHILD_CHAT_TEXTS.feedback;

/** The three answers and the skip, in the order the child reads them. */
const ANSWERS: Array<[FeedbackAnswer, string]> = [
  ['helped', T.helped],
  ['unsure', T.unsure],
  ['not_helped', T.notHelped],
];

/**
 * 'Hur kändes chatten?' once a chat with a counsellor has ended (docs/decisions.md "Heard after
 * the chat"): three answers and 'Hoppa över', then an optional free text, then thanks. Each step is
 * kept by the worker, so a reload shows where the child was; what they send goes through the outbox.
 */
export function ChatFeedback({ conversationId, state }: { conversationId: number; state: ChatStateRow }) {
  const api = useApi();
  const questionId = useId();
  const fieldId = useId();
  const [text, setText] = useState('');
  const feedback = state.feedback?.conversationId === conversationId ? state.feedback : null;
  const step = feedback?.step ?? 'asked';
  if (step === 'skipped') return null;
  if (step === 'thanked') {
    return (
      <p role="status" className={s.thanks}>
        {T.thanks}
      </p>
    );
  }
  const failed = (error: unknown) => console.error('Feedback not kept', error);
  if (step === 'answered') {
    return (
      <form
        className={s.more}
        onSubmit={(e) => {
          e.preventDefault();
          api.tellFeedback(conversationId, text).catch(failed);
        }}
      >
        <label htmlFor={fieldId}>{T.more}</label>
        <textarea
          id={fieldId}
          value={text}
          maxLength={FEEDBACK_TEXT_MAX_LENGTH}
          aria-describedby={`${fieldId}-left`}
          onChange={(e) => setText(e.target.value)}
        />
        <p id={`${fieldId}-left`} className={s.left}>
          {T.left(FEEDBACK_TEXT_MAX_LENGTH - text.length)}
        </p>
        <div className={s.buttons}>
          <button type="submit" className={primaryButton} disabled={text.trim() === ''}>
            {T.send}
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => api.tellFeedback(conversationId, null).catch(failed)}
          >
            {T.skip}
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className={chat.choices} role="group" aria-labelledby={questionId}>
      <p id={questionId}>{T.question}</p>
      {ANSWERS.map(([answer, label]) => (
        <button
          key={answer}
          type="button"
          className={primaryButton}
          onClick={() => api.giveFeedback(conversationId, answer).catch(failed)}
        >
          {label}
        </button>
      ))}
      <button
        type="button"
        className={secondaryButton}
        onClick={() => api.giveFeedback(conversationId, 'skipped').catch(failed)}
      >
        {T.skip}
      </button>
    </div>
  );
}
