import { signal } from '@preact/signals-react';

/**
 * The group chat window of the meeting detail: which meeting's chat is open, whether it is
 * minimised, and the meetings whose chat the user closed (no automatic re-opening for those).
 */
export const openChatMeeting = signal<number | null>(null);
export const chatMinimized = signal(false);
export const chatClosedByUser = signal<ReadonlySet<number>>(new Set());

export function openChat(meetingId: number) {
  openChatMeeting.value = meetingId;
  chatMinimized.value = false;
}

export function closeChat(meetingId: number) {
  openChatMeeting.value = null;
  chatMinimized.value = false;
  chatClosedByUser.value = new Set([...chatClosedByUser.value, meetingId]);
}
