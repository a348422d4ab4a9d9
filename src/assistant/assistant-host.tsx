import { Suspense, useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi, useSession } from '../data/index.ts';
import { assistantConversation, forgetConversation, keepConversation } from './assistant-conversation.ts';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { assistantState } from './assistant-state.ts';
import { assistantToken, readAssistantToken, renewalAt } from './assistant-token.ts';

const RETRY_MS = 60_000;

// The panel loads when first opened (not with the start page), and after the first screen in the
// variants that have the assistant.
const AssistantPanel = lazyPage(
  () => import('./assistant-panel.tsx'),
  (m) => m.AssistantPanel,
  (config) => config.features.assistant,
);

// The chat a signed-out child asked the assistant for reads the child's chat: it comes with the data
// layer, once signed in.
const PendingAssistantChat = lazyPage(
  () => import('./pending-assistant-chat.tsx'),
  (m) => m.PendingAssistantChat,
  (config) => config.features.assistant,
);

/** The public token is renewed before it ends (at 0.75 of its lifetime) while the assistant is in use. */
function useTokenRenewal(inUse: boolean) {
  const api = useApi();
  const [renewals, setRenewals] = useState(0);
  useEffect(() => {
    if (!inUse) return;
    const token = readAssistantToken();
    const due = token ? renewalAt(token) - Date.now() : 0;
    // Not yet due: wait for it. Due: renew now, unless the last try failed (offline): a minute later.
    const wait = due > 0 ? due : renewals === 0 ? 0 : RETRY_MS;
    const timer = setTimeout(() => void assistantToken(api).finally(() => setRenewals((n) => n + 1)), wait);
    return () => clearTimeout(timer);
  }, [api, inUse, renewals]);
}

/**
 * What the assistant needs beside the page: the panel while Active; the chat a signed-out child
 * asked for, started once signed in (PendingAssistantChat); and a sign-out forgets the conversation.
 */
export function AssistantHost() {
  useSignals();
  const { features } = useConfig();
  const { status } = useSession();
  const previous = useRef(status);
  const pending = assistantConversation.value.pendingChat;
  const state = assistantState.value;
  useTokenRenewal(features.assistant && state !== 'Inactive');

  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was === 'authenticated' && status === 'anonymous') forgetConversation();
    // The login cleared sessionStorage: the tab's copy is written back.
    if (status === 'authenticated' && was !== 'authenticated') keepConversation();
  }, [status]);

  return (
    <>
      {status === 'authenticated' && pending && (
        <Suspense fallback={null}>
          <PendingAssistantChat share={pending.share} />
        </Suspense>
      )}
      {features.assistant && state === 'Active' && (
        <Suspense fallback={null}>
          <AssistantPanel />
        </Suspense>
      )}
    </>
  );
}
