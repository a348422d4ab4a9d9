/** Swedish texts of the historic chat window (SPEC §2 Historic chat window). */
export const HISTORIC_CHAT_TEXTS = {
  back: 'Tillbaka',
  title: 'Chatthistorik',
  footer: (date: string) => `Chatt från ${date}`,
  loading: 'Laddar...',
  empty: 'Inga meddelanden.',
} as const;
