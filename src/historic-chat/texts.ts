/** Swedish texts of the historic chat window (SPEC §2 Historic chat window, §8). */
export const HISTORIC_CHAT_TEXTS = {
  back: 'Tillbaka',
  title: 'Chatthistorik',
  footer: (date: string) => `Chatt från ${date}`,
  loading: 'Laddar...',
  empty: 'Inga meddelanden.',
  favourite: 'Favorit',
  favouriteFailed: 'Det gick inte att spara favoriten. Försök igen.',
  delete: 'Ta bort chatten',
  deleteTitle: 'Ta bort chatten',
  deleteConfirm:
    'Är du säker på att du vill ta bort chatten? Den försvinner från ditt konto, kopplas bort från ditt användarnamn och rensas från personuppgifter.',
  deleteYes: 'Ja, ta bort',
  deleteNo: 'Avbryt',
  deleted: 'Chatten har tagits bort.',
  deleteFailed: 'Det gick inte att ta bort chatten. Försök igen.',
  counsellor: 'Kurator',
} as const;
