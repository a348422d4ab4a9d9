/** Swedish texts of the meeting detail (SPEC §2 Meeting detail). */
export const MEETING_DETAIL_TEXTS = {
  heading: 'Grupptillfälle',
} as const;
