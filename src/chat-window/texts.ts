import { GROUP_CHAT_MAX_LENGTH } from '../../contract/limits.ts';

/** Swedish texts of the group chat window (SPEC §2 Chat window, §4 Conversation, §8). */
export const CHAT_TEXTS = {
  minimize: 'Minimera chatten',
  restore: 'Visa chatten',
  leave: 'Lämna chatten',
  close: 'Stäng',
  newMessages: 'Nya meddelanden!',
  ended: 'Chatten är avslutad',
  activeChat: 'Aktiv chatt',
  soonStarting: 'Chatten börjar strax',
  /** SPEC §2 minimised bar: a group chat the leader has not begun is in the queue state of §4. */
  queueBar: 'Chattkö',
  started: 'Gruppchatten har startat',
  live: 'Chatt live',
  typing: 'skriver',
  showNewMessages: 'Visa nya meddelanden',
  messages: 'Meddelanden',
  me: 'Du',
  info: 'Information',
  messageLabel: 'Meddelande',
  placeholderActive: 'Skriv ditt meddelande',
  placeholderEnded: 'Chatten är avslutad',
  placeholderSoon: 'Chatten börjar strax',
  send: 'Skicka',
  sendWithEnter: 'Skicka med Enter',
  counter: (count: number) => `Antal tecken: ${count} av ${GROUP_CHAT_MAX_LENGTH}`,
  sending: 'Skickar...',
  sent: 'Skickat',
  sendFailed: 'Gick inte att skicka meddelandet',
  /** Not from SPEC: the last attempt got no answer (no network, a cut line); it goes when it can. */
  sendOffline: 'Väntar på nätet',
  /** Not from SPEC: the actions on a message the server refused. */
  retry: 'Försök igen',
  remove: 'Ta bort',
  /** Not from SPEC: the server asked to wait (429) and did not say why in its own words. */
  sendWaiting: 'Du har skickat många meddelanden på kort tid. Meddelandet skickas om en stund.',
  afterClosed: 'Meddelandet skickades efter att chatten avslutades',
  /** SPEC §8: leaving before the chat has begun (the group's wording of leaving the queue). */
  leaveConfirm: 'Är du säker på att du vill lämna chatten?',
  leaveYes: 'Ja, lämna',
  leaveNo: 'Avbryt',
  /** SPEC §8: ending a running chat, in the group's close-down wording (ours: the words themselves). */
  closeDownConfirm: 'Är du säker på att du vill stänga ner chatten?',
  closeDownYes: 'Ja, stäng ner',
  connectionTrouble:
    'Internetuppkopplingen verkar svajig. Testa att ladda om sidan om upplever problem med chatten',
} as const;

/** SPEC §2: 'Chatt live' with the duration in minutes, 'minut' for 1, else 'minuter'. */
export function minutesText(minutes: number): string {
  return `${minutes} ${minutes === 1 ? 'minut' : 'minuter'}`;
}
