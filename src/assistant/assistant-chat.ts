import { useState } from 'react';
import { useApi } from '../data/index.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
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

/** What the child is told when the chat did not start. */
function whyNotStarted(code: string, message: string | undefined): string {
  if (code === 'HasCompletedAConversation') return T.chattedToday;
  if (code === 'rate_limited') return message ?? T.chatFailed;
  if (code === 'offline') return T.chatOffline;
  return T.chatFailed;
}

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

  /** Starts the chat; the reason it did not start, if it did not (null when it did or was open). */
  const start = async (share: boolean): Promise<string | null> => {
    setStarting(true);
    setError(null);
    try {
      const conversation = chat?.conversation ?? null;
      if (conversation && phaseOf(conversation) !== 'ended') {
        showChatWindow();
        return null;
      }
      if (conversation) await api.closeChat();
      const text = share ? contextMessage(assistantConversation.value.entries) : null;
      const result = await api.startChat(text, device());
      if (result.ok || result.code === 'HasActive') {
        showChatWindow();
        return null;
      }
      const reason = whyNotStarted(result.code, result.message);
      setError(reason);
      return reason;
    } finally {
      setStarting(false);
    }
  };

  return { start, starting, error };
}
