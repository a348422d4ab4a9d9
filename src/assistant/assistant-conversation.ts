import { signal } from '@preact/signals-react';
import type { AssistantNextStep } from '../../contract/assistant.ts';
import { CHAT_MAX_LENGTH } from '../../contract/limits.ts';
import { ASSISTANT_TEXTS as T } from './texts.ts';

/** One line of the conversation: what the child chose or wrote, or what the assistant answered. */
export type AssistantEntry =
  | { id: number; from: 'child'; kind: 'topic' | 'question'; text: string }
  | { id: number; from: 'assistant'; text: string; nextSteps: AssistantNextStep[]; more?: string };

/**
 * The conversation with the assistant lives in this tab only: in memory, mirrored to sessionStorage
 * so a reload keeps it. Never in IndexedDB, never on the server. `pendingChat`: a signed-out child
 * chose 'Starta chatt'; the chat starts once signed in (a login clears sessionStorage, the memory
 * copy outlives it and is written back).
 */
export interface AssistantConversation {
  entries: AssistantEntry[];
  pendingChat: { share: boolean } | null;
}

const KEY = 'assistant-conversation';
const EMPTY: AssistantConversation = { entries: [], pendingChat: null };

function read(): AssistantConversation {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
    return raw ? { ...EMPTY, ...(JSON.parse(raw) as AssistantConversation) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

export const assistantConversation = signal<AssistantConversation>(read());

function save(next: AssistantConversation) {
  assistantConversation.value = next;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or refused: the tab's memory still holds the conversation.
  }
}

let nextId = Math.max(0, ...assistantConversation.value.entries.map((e) => e.id)) + 1;

type NewEntry =
  | Omit<Extract<AssistantEntry, { from: 'child' }>, 'id'>
  | Omit<Extract<AssistantEntry, { from: 'assistant' }>, 'id'>;

export function addEntries(...entries: NewEntry[]) {
  const current = assistantConversation.value;
  save({
    ...current,
    entries: [...current.entries, ...entries.map((e) => ({ ...e, id: nextId++ }) as AssistantEntry)],
  });
}

export function setPendingChat(pendingChat: AssistantConversation['pendingChat']) {
  save({ ...assistantConversation.value, pendingChat });
}

/** Written back after a login cleared sessionStorage. */
export function keepConversation() {
  save(assistantConversation.value);
}

/** Signing out forgets it (a shared phone). */
export function forgetConversation() {
  save(EMPTY);
  sessionStorage.removeItem(KEY);
}

/** What the child chose and wrote, as the first (pre-submit) message of a counsellor chat. */
export function contextMessage(entries: readonly AssistantEntry[]): string | null {
  const lines = entries.flatMap((e) =>
    e.from !== 'child' ? [] : [e.kind === 'topic' ? T.contextTopic(e.text) : T.contextQuestion(e.text)],
  );
  if (lines.length === 0) return null;
  const text = [T.contextHeading, ...lines].join('\n');
  return text.length <= CHAT_MAX_LENGTH ? text : `${text.slice(0, CHAT_MAX_LENGTH - 1)}…`;
}
