import { signal } from '@preact/signals-react';

/** SPEC §4 Virtual assistant: Inactive until the assistant is opened. */
export type AssistantState = 'Inactive' | 'Active' | 'Minimized';

const COOKIE = 'assistant-state';

function readCookie(): AssistantState {
  const value = document.cookie
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  return value === 'Active' || value === 'Minimized' ? value : 'Inactive';
}

export const assistantState = signal<AssistantState>(readCookie());

/** Every change is kept in a session cookie (its name contains 'assistant', so login keeps it). */
export function setAssistantState(state: AssistantState) {
  assistantState.value = state;
  document.cookie = `${COOKIE}=${state}; path=/; SameSite=Lax`;
}

/** The header toggle switches between Active and Minimized. */
export function toggleAssistant() {
  setAssistantState(assistantState.value === 'Active' ? 'Minimized' : 'Active');
}
