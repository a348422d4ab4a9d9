import { signal } from '@preact/signals-react';
import { chatOpened } from '../assistant/assistant-state.ts';

/**
 * The child's chat window (SPEC §4 Chat modal): shown or not, minimised or not. The chat itself lives
 * in Dexie; this is only what the window looks like in this tab.
 */
export const chatWindowOpen = signal(false);
export const chatWindowMinimized = signal(false);

/** SPEC §4: opening a chat minimises an Active assistant; Peers opens minimised. */
export function showChatWindow(minimized = false) {
  chatOpened();
  chatWindowOpen.value = true;
  chatWindowMinimized.value = minimized;
}

export function hideChatWindow() {
  chatWindowOpen.value = false;
  chatWindowMinimized.value = false;
}
