import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { ChatAccountStatus } from '../../worker/client/one-to-one-chat.ts';
import type { RuntimeConfig } from '../../contract/config.ts';
import { AssistantLauncher } from '../assistant/assistant-launcher.tsx';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { mailPaths } from '../../contract/mail-paths.ts';
import { chatWindowWanted, showChatWindow } from '../one-to-one-chat/chat-store.ts';
import { phaseOf } from '../one-to-one-chat/child-chat-state.ts';
import { CHILD_CHAT_TEXTS } from '../one-to-one-chat/texts.ts';
import { useChildChat } from '../one-to-one-chat/use-child-chat.ts';
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

/** The chat card: start a chat, or the state of the one going on (SPEC §1, §4). */
function ChatCard() {
  const api = useApi();
  const minimized = opensMinimized(useConfig().features);
  const chat = useChildChat();
  const [status, setStatus] = useState<ChatAccountStatus | null>(null);
  const [starting, setStarting] = useState(false);
  // `offline`: the start got no answer; the notice goes once the browser is online again.
  const [error, setError] = useState<{ text: string; offline: boolean } | null>(null);
  const conversation = chat?.conversation ?? null;
  const phase = conversation ? phaseOf(conversation) : null;
  const live = phase === 'queue' || phase === 'active';

  useEffect(() => {
    if (live) return;
    let current = true;
    void api.chatAccountStatus().then((s) => current && setStatus(s.ok ? s.value : 'Error'));
    return () => {
      current = false;
    };
  }, [api, live]);

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
