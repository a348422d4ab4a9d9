import { signal } from '@preact/signals-react';

/**
 * The child's chat window (SPEC §4 Chat modal): shown or not, minimised or not. The chat itself lives
 * in Dexie; this is only what the window looks like in this tab.
 */
export const chatWindowOpen = signal(false);
export const chatWindowMinimized = signal(false);

const shownListeners = new Set<() => void>();

/**
 * Something to do each time a chat window is shown: the assistant minimises itself (SPEC §4).
 * The assistant builds on the chat, not the other way round, so it listens here.
 */
export function onChatWindowShown(listener: () => void): () => void {
  shownListeners.add(listener);
  return () => shownListeners.delete(listener);
}

const wantedListeners = new Set<() => void>();

/**
 * Something to do when the child is about to show the chat window: a finger or a pointer is down on
 * what opens it (its click follows in a tenth of a second or so), so its messages can be read first.
 */
export function onChatWindowWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/** A pointer went down on something that opens the chat window (see onChatWindowWanted). */
export function chatWindowWanted() {
  for (const listener of wantedListeners) listener();
}

/** SPEC §4: opening a chat minimises an Active assistant; Peers opens minimised. */
export function showChatWindow(minimized = false) {
  for (const listener of shownListeners) listener();
  chatWindowOpen.value = true;
  chatWindowMinimized.value = minimized;
}

export function hideChatWindow() {
  chatWindowOpen.value = false;
  chatWindowMinimized.value = false;
}
