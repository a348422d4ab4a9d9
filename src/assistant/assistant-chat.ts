import { useState } from 'react';
import { useApi } from '../data/index.ts';
import { installedAsApp } from '../header/installed-as-app.ts';
import { showChatWindow } from '../one-to-one-chat/chat-store.ts';
import { phaseOf } from '../one-to-one-chat/child-chat-state.ts';
import { useChildChat } from '../one-to-one-chat/use-child-chat.ts';
import { assistantConversation, contextMessage } from './assistant-conversation.ts';
import { ASSISTANT_TEXTS as T } from './texts.ts';

const device = () => ({
  userAgent: navigator.userAgent,
  platform: navigator.platform,
  installed: installedAsApp(),
});

/**
 * 'Starta chatt' from the assistant: a counsellor chat whose first (pre-submit) message is what the
 * child chose and wrote, if the child agreed. Showing the chat window minimises the assistant
 * (chatOpened, SPEC §4).
 */
export function useAssistantChat() {
  const api = useApi();
  const chat = useChildChat();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async (share: boolean) => {
    setStarting(true);
    setError(null);
    try {
      const conversation = chat?.conversation ?? null;
      if (conversation && phaseOf(conversation) !== 'ended') {
        showChatWindow();
        return;
      }
      if (conversation) await api.closeChat();
      const text = share ? contextMessage(assistantConversation.value.entries) : null;
      const result = await api.startChat(text, device());
      if (result.ok || result.code === 'HasActive') showChatWindow();
      else if (result.code === 'HasCompletedAConversation') setError(T.chattedToday);
      else if (result.code === 'rate_limited') setError(result.message ?? T.chatFailed);
      else if (result.code === 'offline') setError(T.chatOffline);
      else setError(T.chatFailed);
    } finally {
      setStarting(false);
    }
  };

  return { start, starting, error };
}
