/** Swedish texts of the meeting list (SPEC §2 Group-support start page, Meeting list). */
export const MEETING_LIST_TEXTS = {
  inProgress: 'Pågående träffar',
  upcoming: 'Kommande träffar',
  finished: 'Avslutade träffar',
  empty: 'Inga träffar tillgängliga just nu.',
  noMeetings: 'Hittade inga grupptillfällen',
  loading: 'Laddar...',
} as const;
