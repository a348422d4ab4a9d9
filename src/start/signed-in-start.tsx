import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { ChatAccountStatus } from '../../worker/client/one-to-one-chat.ts';
import type { RuntimeConfig } from '../../contract/config.ts';
import { AssistantLauncher } from '../assistant/assistant-launcher.tsx';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi, useDb } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { mailPaths } from '../../contract/mail-paths.ts';
import { chatWindowWanted, showChatWindow } from '../one-to-one-chat/chat-store.ts';
import { phaseOf } from '../one-to-one-chat/child-chat-state.ts';
import { CHILD_CHAT_TEXTS } from '../one-to-one-chat/texts.ts';
import { readChildChat, useChildChat, type ChildChatRows } from '../one-to-one-chat/use-child-chat.ts';
import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { primaryButton } from '../styles/controls.ts';
import * as s from './child-start-page.styles.ts';
import { START_TEXTS as T } from './texts.ts';

// The Peers board is only in the Peers variant: its code comes only there.
const PeerBoard = lazyPage(
  () => import('../peers/peer-board.tsx'),
  (m) => m.PeerBoard,
  (config) => config.features.peers,
);

/** SPEC §2: Peers opens the chat minimised. */
const opensMinimized = (features: RuntimeConfig['features']) => features.peers;

function device() {
  return { userAgent: navigator.userAgent, platform: navigator.platform, installed: installedAsApp() };
}

/** A chat in the queue or live: the card shows it instead of the offer to start one. */
function goingOn(chat: ChildChatRows | undefined): boolean {
  const phase = chat?.conversation ? phaseOf(chat.conversation) : null;
  return phase === 'queue' || phase === 'active';
}

/**
 * The chat card: start a chat, or the state of the one going on (SPEC §1, §4). Until it is known
 * whether a chat is going on, neither (docs/decisions.md, "The start page's chat card").
 */
function ChatCard() {
  const api = useApi();
  const db = useDb();
  const minimized = opensMinimized(useConfig().features);
  const chat = useChildChat();
  const [status, setStatus] = useState<ChatAccountStatus | null>(null);
  // The server has a chat going on that this device did not show, and the worker, asked for it,
  // stored none to show: the offer to start one is made (a start then shows the chat going on).
  const [noneToShow, setNoneToShow] = useState(false);
  const [starting, setStarting] = useState(false);
  // `offline`: the start got no answer; the notice goes once the browser is online again.
  const [error, setError] = useState<{ text: string; offline: boolean } | null>(null);
  const conversation = chat?.conversation ?? null;
  const phase = conversation ? phaseOf(conversation) : null;
  const live = goingOn(chat);

  useEffect(() => {
    if (live) return;
    let current = true;
    // What the server said before the chat went on (or ended) says nothing of today any more.
    setStatus(null);
    setNoneToShow(false);
    void api.chatAccountStatus().then((s) => current && setStatus(s.ok ? s.value : 'Error'));
    return () => {
      current = false;
    };
  }, [api, live]);

  // A chat going on that this device does not show yet: started on another device, or the
  // worker's resume at the start has not stored it yet. It is read now, and shown once stored.
  useEffect(() => {
    if (live || status !== 'HasActive') return;
    let current = true;
    void (async () => {
      await api.resumeChat().catch(() => undefined);
      const stored = await readChildChat(db).catch(() => undefined);
      if (current && !goingOn(stored)) setNoneToShow(true);
    })();
    return () => {
      current = false;
    };
  }, [api, db, live, status]);

  const known = chat !== undefined && (live || (status !== null && (status !== 'HasActive' || noneToShow)));

  useEffect(() => {
    const online = () => setError((shown) => (shown?.offline ? null : shown));
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      if (conversation) await api.closeChat();
      const result = await api.startChat(null, device());
      if (result.ok) showChatWindow(minimized);
      else if (result.code === 'HasCompletedAConversation') setStatus('HasCompletedAConversation');
      else if (result.code === 'HasActive') showChatWindow(minimized);
      else if (result.code === 'rate_limited')
        setError({ text: result.message ?? T.startFailed, offline: false });
      else if (result.code === 'offline') setError({ text: T.startOffline, offline: true });
      else setError({ text: T.startFailed, offline: false });
    } finally {
      setStarting(false);
    }
  };

  if (!known) return <ChatCardPending />;

  return (
    <section className={s.card} aria-labelledby="start-chat-heading">
      <h2 id="start-chat-heading">{T.chatHeading}</h2>
      {live && conversation ? (
        <>
          <p role="status">
            {phase === 'queue' ? T.inQueue : T.activeChat}
            {phase === 'queue' && conversation.queuePosition ? (
              <> {CHILD_CHAT_TEXTS.queuePlace(conversation.queuePosition)}</>
            ) : null}
          </p>
          <button
            type="button"
            className={primaryButton}
            onPointerDown={chatWindowWanted}
            onClick={() => showChatWindow()}
          >
            {T.openChat}
          </button>
        </>
      ) : (
        <>
          <p>{status === 'HasCompletedAConversation' ? T.chattedToday : T.chatText}</p>
          <button
            type="button"
            className={primaryButton}
            disabled={starting || status === null || status === 'HasCompletedAConversation'}
            onClick={() => void start()}
          >
            {starting ? T.startingChat : T.startChat}
          </button>
          {error && (
            <p role="alert" className={s.error}>
              {error.text}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * The chat card while it is not known whether a chat is going on: its heading, and the room of its
 * offer to start one with nothing in it to read or press, so that nothing moves when it comes.
 */
function ChatCardPending() {
  return (
    <section className={s.card} aria-labelledby="start-chat-heading" aria-busy="true">
      <h2 id="start-chat-heading">{T.chatHeading}</h2>
      <p className={s.pendingText} aria-hidden="true" />
      <span className={`${primaryButton} ${s.pendingButton}`} aria-hidden="true" />
    </section>
  );
}

/**
 * Route '/' and '/start' in the child app, signed in: chat, write, and the way back to history.
 * It reads the data worker's database, so it comes with the data layer (the app chunk).
 */
export function SignedInStart({ prompt }: { prompt: ReactNode }) {
  const config = useConfig();
  const profile = useProfile();
  return (
    <PageLayout>
      <h1>{profile ? T.childHeading(profile.username) : config.providerName}</h1>
      <EmergencyLink />
      <p>{T.childIntro}</p>
      <AssistantLauncher />
      <div className={s.cards}>
        <ChatCard />
        <section className={s.card} aria-labelledby="start-mail-heading">
          <h2 id="start-mail-heading">{T.mailHeading}</h2>
          <p>{T.mailText}</p>
          <Link className={primaryButton} href={mailPaths(config.features).newMail}>
            {T.writeMail}
          </Link>
        </section>
      </div>
      {config.features.peers && (
        <Suspense fallback={null}>
          <PeerBoard />
        </Suspense>
      )}
      <p>
        <Link href="/mina-sidor#historik">{T.historyLink}</Link>
      </p>
      {prompt}
    </PageLayout>
  );
}
