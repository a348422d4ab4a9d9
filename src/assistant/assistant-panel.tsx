import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'wouter';
import { ASSISTANT_QUESTION_MAX_LENGTH, type AssistantNextStep } from '../../contract/assistant.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { registerStyle } from '../config/variant.ts';
import { useApi, useSession, useDb } from '../data/index.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { field, iconButton, linkButton, primaryButton, secondaryButton } from '../styles/controls.ts';
import { useAssistantChat } from './assistant-chat.ts';
import {
  addEntries,
  assistantConversation,
  setPendingChat,
  type AssistantEntry,
} from './assistant-conversation.ts';
import { setAssistantState, wasOpenedInThisPage } from './assistant-state.ts';
import { assistantToken } from './assistant-token.ts';
import * as s from './assistant-panel.styles.ts';
import { ASSISTANT_TEXTS as T } from './texts.ts';

type LoadState = 'loading' | 'ok' | 'failed';

/** Fetches the content (renewing a refused token once); the cached copy is what the panel shows. */
function useContentLoad(): LoadState {
  const api = useApi();
  const [state, setState] = useState<LoadState>('loading');
  useEffect(() => {
    let current = true;
    const load = async () => {
      for (const fresh of [false, true]) {
        const token = await assistantToken(api, fresh);
        if (!token) return 'failed';
        const result = await api.loadAssistantContent(token);
        if (result.ok) return 'ok';
        if (result.code !== 'forbidden') return 'failed';
      }
      return 'failed';
    };
    void load().then((next) => current && setState(next));
    return () => {
      current = false;
    };
  }, [api]);
  return state;
}

/** The free-text question, matched on the server; a refused token is renewed once. */
function useAsk() {
  const api = useApi();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ask = async (question: string): Promise<boolean> => {
    setSending(true);
    setError(null);
    try {
      for (const fresh of [false, true]) {
        const token = await assistantToken(api, fresh);
        if (!token) break;
        const result = await api.askAssistant(token, question);
        if (result.ok) {
          addEntries(
            { from: 'child', kind: 'question', text: question },
            { from: 'assistant', text: result.value.answer, nextSteps: result.value.nextSteps },
          );
          return true;
        }
        if (result.code === 'rate_limited') {
          setError(result.message ?? T.askFailed);
          return false;
        }
        if (result.code !== 'forbidden') break;
      }
      setError(navigator.onLine ? T.askFailed : T.askOffline);
      return false;
    } finally {
      setSending(false);
    }
  };
  return { ask, sending, error };
}

function ChatStep() {
  const config = useConfig();
  const { status } = useSession();
  const chat = useAssistantChat();
  const shareId = useId();
  const [share, setShare] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const hasContext = assistantConversation.value.entries.some((e) => e.from === 'child');
  const signedIn = status === 'authenticated';
  const pending = assistantConversation.value.pendingChat !== null;

  return (
    <div className={s.steps}>
      {hasContext && (
        <label htmlFor={shareId}>
          <input id={shareId} type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} />{' '}
          {T.share}
        </label>
      )}
      <button
        type="button"
        className={primaryButton}
        disabled={chat.starting}
        onClick={() => {
          if (signedIn) return void chat.start(share && hasContext);
          // Signed out: the chat starts once signed in (assistant-host.tsx), with the same choice.
          setPendingChat({ share: share && hasContext });
          setLoginOpen(true);
        }}
      >
        {chat.starting ? T.startingChat : T.startChat}
      </button>
      {!signedIn && pending && (
        <>
          <p>{T.signInToChat}</p>
          <Link className={secondaryButton} href={`/skapa-konto?style=${registerStyle(config)}`}>
            {T.createAccount}
          </Link>
          <LoginModal open={loginOpen} onClose={() => setLoginOpen(false)} />
        </>
      )}
      {chat.error && (
        <p role="alert" className={s.error}>
          {chat.error}
        </p>
      )}
    </div>
  );
}

/** Every path ends in a next step: chat, write, read more, or call 112. */
function NextSteps({ steps, more }: { steps: readonly AssistantNextStep[]; more?: string }) {
  const [showMore, setShowMore] = useState(false);
  const moreId = useId();
  return (
    <section className={s.steps} aria-label={T.nextSteps}>
      <h3>{T.nextSteps}</h3>
      {steps.includes('read-more') && more && (
        <>
          <button
            type="button"
            className={linkButton}
            aria-expanded={showMore}
            aria-controls={moreId}
            onClick={() => setShowMore((v) => !v)}
          >
            {T.readMore}
          </button>
          <p id={moreId} hidden={!showMore}>
            {more}
          </p>
        </>
      )}
      {steps.includes('chat') && <ChatStep />}
      <div className={s.stepButtons}>
        {steps.includes('write') && (
          <Link className={secondaryButton} href="/mina-sidor/nytt-inlagg">
            {T.writeMessage}
          </Link>
        )}
        {steps.includes('call-112') && (
          <a className={secondaryButton} href="tel:112">
            {T.call112}
          </a>
        )}
      </div>
    </section>
  );
}

function Entry({ entry }: { entry: AssistantEntry }) {
  return (
    <p className={entry.from === 'child' ? `${s.entry} ${s.childEntry}` : s.entry}>
      <span className={s.author}>{entry.from === 'child' ? T.you : T.assistant}</span>
      {entry.text}
    </p>
  );
}

/**
 * The virtual assistant's panel, at shell level so it stays across pages while Active.
 * Escape and the minimise button minimise it and give focus back to where it was.
 */
export function AssistantPanel() {
  useSignals();
  const db = useDb();
  const loadState = useContentLoad();
  const content = useLiveQuery(() => db.assistantContent.get('current'), [db])?.content;
  const { ask, sending, error } = useAsk();
  const [question, setQuestion] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const questionId = useId();
  const entries = assistantConversation.value.entries;
  const last = [...entries].reverse().find((e) => e.from === 'assistant');
  const logEnd = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const focused = document.activeElement;
    returnTo.current = focused instanceof HTMLElement && focused !== document.body ? focused : null;
    // Opened by the child: focus moves in. Found open after a reload: focus stays where it is.
    if (wasOpenedInThisPage()) headingRef.current?.focus();
  }, []);

  useEffect(() => {
    logEnd.current?.scrollIntoView?.({ block: 'nearest' });
  }, [entries.length]);

  const minimize = () => {
    setAssistantState('Minimized');
    const target = returnTo.current;
    if (target?.isConnected) target.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      minimize();
    }
  };
  const chooseTopic = (id: string) => {
    const topic = content?.topics.find((t) => t.id === id);
    if (!topic) return;
    addEntries(
      { from: 'child', kind: 'topic', text: topic.title },
      {
        from: 'assistant',
        text: topic.answer,
        nextSteps: topic.nextSteps,
        ...(topic.more ? { more: topic.more } : {}),
      },
    );
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = question.trim();
    if (!text || sending) return;
    if (await ask(text)) setQuestion('');
  };

  return (
    <aside className={`${s.panel} ${s.pageRoom}`} aria-labelledby="assistant-title" onKeyDown={onKeyDown}>
      <div className={s.header}>
        <h2 id="assistant-title" tabIndex={-1} ref={headingRef}>
          {T.title}
        </h2>
        <button type="button" className={iconButton} aria-label={T.minimize} onClick={minimize}>
          <span aria-hidden="true">–</span>
        </button>
      </div>
      <div className={s.body}>
        {content ? (
          <p>{content.greeting}</p>
        ) : loadState === 'loading' ? (
          <p role="status">{T.loading}</p>
        ) : (
          <p role="status">{T.unavailable}</p>
        )}
        <EmergencyLink />
        {content && (
          <section aria-labelledby="assistant-topics">
            <h3 id="assistant-topics">{T.topicsHeading}</h3>
            <ul className={s.topics}>
              {content.topics.map((topic) => (
                <li key={topic.id}>
                  <button type="button" className={secondaryButton} onClick={() => chooseTopic(topic.id)}>
                    {topic.title}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        <div className={s.log} role="log" aria-live="polite" aria-label={T.conversation}>
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </div>
        {last?.from === 'assistant' ? (
          <NextSteps key={last.id} steps={last.nextSteps} {...(last.more ? { more: last.more } : {})} />
        ) : (
          !content && loadState === 'failed' && <NextSteps steps={['chat', 'write']} />
        )}
        <div ref={logEnd} />
        <form className={s.form} onSubmit={(e) => void submit(e)}>
          <label htmlFor={questionId}>{T.questionLabel}</label>
          <div className={s.formRow}>
            <input
              id={questionId}
              className={field}
              value={question}
              maxLength={ASSISTANT_QUESTION_MAX_LENGTH}
              autoComplete="off"
              onChange={(e) => setQuestion(e.target.value)}
            />
            {/* aria-disabled, not disabled: a disabled button would drop the keyboard's focus. */}
            <button type="submit" className={primaryButton} aria-disabled={sending}>
              {sending ? T.sending : T.send}
            </button>
          </div>
          {error && (
            <p role="alert" className={s.error}>
              {error}
            </p>
          )}
        </form>
      </div>
    </aside>
  );
}
