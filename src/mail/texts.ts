import { ERROR_TEXTS, OFFLINE_CACHED_TEXT } from '../errors/texts.ts';
import { MAIL_MAX_LENGTH, MAIL_SUBJECT_MAX_LENGTH } from '../../contract/limits.ts';

/** Swedish texts of the new post and thread pages (SPEC §2 nytt-inlagg, inlagg). */
export const MAIL_TEXTS = {
  newPostHeading: 'Nytt meddelande',
  newPostIntro: (provider: string) =>
    `Skriv till en kurator på ${provider}. Svaret kommer här på Mina sidor.`,
  subject: 'Ämne',
  subjectRequired: 'Ämne måste anges.',
  subjectTooLong: `Max ${MAIL_SUBJECT_MAX_LENGTH} tecken.`,
  text: 'Meddelande',
  textRequired: 'Meddelande måste anges.',
  textTooLong: `Max ${MAIL_MAX_LENGTH} tecken.`,
  counter: (count: number) => `Antal tecken: ${count} av ${MAIL_MAX_LENGTH}`,
  send: 'Skicka',
  sending: 'Skickar...',
  sendFailed: ERROR_TEXTS.failed,
  queued: 'Du verkar vara offline. Meddelandet är sparat och skickas när du är uppkopplad igen.',
  waiting: 'Du har skickat många meddelanden på kort tid. Meddelandet är sparat och skickas om en stund.',
  sent: 'Meddelandet har skickats.',
  threadFallbackTitle: 'Meddelande',
  started: (date: string) => `Skickat ${date}`,
  loading: 'Hämtar meddelandet...',
  notFound: 'Hittade inget meddelande.',
  loadFailed: 'Det gick inte att hämta meddelandet. Försök igen senare.',
  offline: OFFLINE_CACHED_TEXT,
  backToMyPages: 'Till Mina sidor',
  reply: 'Svara',
  replyLabel: 'Ditt svar',
  replySend: 'Skicka svar',
  counsellor: 'Kurator',
  empty: 'Inga meddelanden.',
  // Ours: the chat queue's question (one-to-one-chat/notice-question.tsx), under a mail not yet answered.
  noticeQuestion: 'Vill du få en notis när någon har svarat dig?',
  noticeYes: 'Ja, tack',
  noticeNo: 'Nej tack',
} as const;
