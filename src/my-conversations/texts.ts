import { OFFLINE_CACHED_TEXT } from '../errors/texts.ts';
/** Swedish texts of my pages' mail threads and chat history (SPEC §2 /mina-sidor). */
export const MY_CONVERSATIONS_TEXTS = {
  mailHeading: 'Mina meddelanden',
  newPost: 'Skriv ett nytt meddelande',
  noMail: 'Du har inga meddelanden ännu.',
  noSubject: 'Meddelande utan ämne',
  unread: 'Nytt svar',
  historyHeading: 'Chatthistorik',
  noHistory: 'Du har inga avslutade chattar.',
  chatFrom: (date: string) => `Chatt från ${date}`,
  at: (time: string) => `kl ${time}`,
  favourite: 'Favorit',
  loading: 'Hämtar dina meddelanden...',
  loadFailed: 'Det gick inte att hämta dina meddelanden. Försök igen senare.',
  offline: OFFLINE_CACHED_TEXT,
} as const;
