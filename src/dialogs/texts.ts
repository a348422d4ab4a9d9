/** Swedish texts of the generic dialogs (SPEC §2 Generic dialogs). */
export const DIALOG_TEXTS = {
  confirmTitle: 'Bekräfta',
  confirmText: 'Är du säker?',
  yes: 'Ja',
  no: 'Nej',
  close: 'Stäng',
  back: 'Tillbaka',
} as const;
