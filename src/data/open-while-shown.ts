import { useEffect, useState } from 'react';
import { outcomeOf, type LoadOutcome } from '../../worker/client/result.ts';
import { useApi } from './data-context.tsx';

const logFailure = (command: string) => (error: unknown) => console.error(command, error);

/**
 * Keeps a mail thread or historic chat open in the worker while the component shows it (the
 * worker counts the opens of every tab, fetches it and follows it live). Answers the outcome of
 * the first load, or null while it is under way.
 */
export function useOpenConversation(conversationId: number): LoadOutcome | null {
  const api = useApi();
  const [outcome, setOutcome] = useState<LoadOutcome | null>(null);
  useEffect(() => {
    let current = true;
    api
      .openConversation(conversationId)
      .then((result) => current && setOutcome(outcomeOf(result)))
      .catch(() => current && setOutcome('failed'));
    return () => {
      current = false;
      api.closeConversation(conversationId).catch(logFailure('closeConversation'));
    };
  }, [api, conversationId]);
  return outcome;
}

/** Keeps a meeting's group chat open in the worker while the component shows it. */
export function useOpenGroupChat(conversationId: number | null): void {
  const api = useApi();
  useEffect(() => {
    if (conversationId === null) return;
    api.openGroupChat(conversationId).catch(logFailure('openGroupChat'));
    return () => {
      api.closeGroupChat(conversationId).catch(logFailure('closeGroupChat'));
    };
  }, [api, conversationId]);
}
