import { useEffect, useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useConfig } from '../config/runtime-config.tsx';
import { useSession } from '../data/index.ts';
import { useAssistantChat } from './assistant-chat.ts';
import {
  assistantConversation,
  forgetConversation,
  keepConversation,
  setPendingChat,
} from './assistant-conversation.ts';
import { AssistantPanel } from './assistant-panel.tsx';
import { assistantState } from './assistant-state.ts';

/**
 * What the assistant needs beside the page (issue 14): the panel while Active; the chat a signed-out
 * child asked for, started once signed in; and a sign-out forgets the conversation.
 */
export function AssistantHost() {
  useSignals();
  const { features } = useConfig();
  const { status } = useSession();
  const chat = useAssistantChat();
  const previous = useRef(status);
  const pending = assistantConversation.value.pendingChat;

  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was === 'authenticated' && status === 'anonymous') forgetConversation();
    if (status !== 'authenticated') return;
    // The login cleared sessionStorage: the tab's copy is written back.
    if (was !== 'authenticated') keepConversation();
    if (pending) {
      setPendingChat(null);
      void chat.start(pending.share);
    }
  }, [status, pending, chat]);

  if (!features.assistant || assistantState.value !== 'Active') return null;
  return <AssistantPanel />;
}
