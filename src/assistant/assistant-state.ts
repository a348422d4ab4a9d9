import { signal } from '@preact/signals-react';
import { readAppCookie, writeAppCookie } from '../ui-kit/app-cookies.ts';
import { onChatWindowShown } from '../one-to-one-chat/chat-store.ts';
import { DESKTOP_MIN_WIDTH } from '../styles/theme.ts';

/** SPEC §4 Virtual assistant: Inactive until the assistant is opened. */
export type AssistantState = 'Inactive' | 'Active' | 'Minimized';

/** An app cookie (SPEC §9): read and written as e.g. `web_assistant-state`. */
const COOKIE = 'assistant-state';

/**
 * The transitions of SPEC §4: the header toggle switches Active and Minimized (Inactive stays until
 * the assistant is opened); opening a chat minimises an Active assistant.
 */
export function assistantAfter(
  state: AssistantState,
  event: 'toggle' | 'chat-opened' | 'open',
): AssistantState {
  if (event === 'open') return 'Active';
  if (event === 'chat-opened') return state === 'Active' ? 'Minimized' : state;
  if (state === 'Inactive') return state;
  return state === 'Active' ? 'Minimized' : 'Active';
}

function readCookie(): AssistantState {
  const value = readAppCookie(COOKIE);
  return value === 'Active' || value === 'Minimized' ? value : 'Inactive';
}

/**
 * The state a page starts in. On a phone the open panel is a sheet over most of the screen: one the
 * child left open on another page (or before a reload) comes back minimised, so a page never opens
 * under it, 'Starta en chatt' included; the header's toggle opens it again. On a desktop it is a
 * panel beside the content and comes back as it was (see docs/decisions.md).
 */
export function stateAtLoad(stored: AssistantState, desktop: boolean): AssistantState {
  return stored === 'Active' && !desktop ? 'Minimized' : stored;
}

const onDesktop = () => window.matchMedia(`(min-width: ${DESKTOP_MIN_WIDTH}px)`).matches;

export const assistantState = signal<AssistantState>(
  typeof document === 'undefined' ? 'Inactive' : stateAtLoad(readCookie(), onDesktop()),
);
if (typeof document !== 'undefined' && assistantState.value !== readCookie()) {
  writeAppCookie(COOKIE, assistantState.value);
}

let openedInThisPage = false;

/** Whether the assistant was opened since this page loaded (not found open after a reload). */
export const wasOpenedInThisPage = () => openedInThisPage;

/**
 * Every change is kept in a cookie, a session cookie in the browser and one of a year in the installed
 * app (src/ui-kit/app-cookies.ts); its name contains 'assistant', so a login keeps it.
 */
export function setAssistantState(state: AssistantState) {
  if (state === 'Active') openedInThisPage = true;
  assistantState.value = state;
  writeAppCookie(COOKIE, state);
}

/** The header toggle switches between Active and Minimized. */
export function toggleAssistant() {
  setAssistantState(assistantAfter(assistantState.value, 'toggle'));
}

/** SPEC §4: opening a chat minimises an Active assistant. */
export function chatOpened() {
  const next = assistantAfter(assistantState.value, 'chat-opened');
  if (next !== assistantState.value) setAssistantState(next);
}
onChatWindowShown(chatOpened);

/** The launcher 'Fråga assistenten': Inactive or Minimized becomes Active. */
export function openAssistant() {
  setAssistantState(assistantAfter(assistantState.value, 'open'));
}
