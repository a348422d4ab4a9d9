import { ERROR_TEXTS } from '../errors/texts.ts';
import { PRIVATE_MESSAGE_MAX_LENGTH } from '../../contract/limits.ts';

/** Swedish texts of the meeting detail (SPEC §2 Meeting detail, §6, §8). */
export const MEETING_DETAIL_TEXTS = {
  heading: 'Grupptillfälle',
  notFound: 'Hittade inget grupptillfälle',
  notFoundError: 'Tillfället hittades inte',
  loading: 'Laddar...',
  showHistory: 'Se chatthistorik',
  openChat: 'Öppna chatt',
  description: 'Beskrivning',
  privateMessageHeading: 'Skicka ett privat meddelande till gruppledarna på',
  privateMessageLabel: 'Meddelande',
  privateMessageSend: 'Skicka',
  privateMessageSending: 'Skickar...',
  textRequired: 'Text måste anges',
  textTooLong: `Max ${PRIVATE_MESSAGE_MAX_LENGTH} tecken`,
  messageSent: 'Meddelande skickat.',
  /** Written offline: it is in the outbox, not yet sent (ours; SPEC has only the sent text). */
  messageQueued: 'Meddelandet skickas när du är uppkopplad igen.',
  messageFailed: ERROR_TEXTS.failed,
  participants: 'Deltagare',
  noParticipants: 'Inga anslutna deltagare',
  connection: { Connected: 'Ansluten', Away: 'Borta', Disconnected: 'Frånkopplad' },
  accessDeniedTitle: 'Åtkomst nekad',
  accessDeniedText: 'Du har inte längre åtkomst till gruppen. Du loggas nu ut.',
  toStartPage: 'Till startsidan',
  debug: 'Felsökning',
} as const;
