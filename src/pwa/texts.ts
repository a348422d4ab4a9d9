/** Swedish texts of the install modal (SPEC §2 Install modal, spelled as there). */
export const INSTALL_TEXTS = {
  title: 'Installera på din telefon?',
  text: 'Vill du installera appen på din telefon för en bättre upplevelse?',
  cancel: 'Avbryt',
  install: 'Installera',
} as const;

/** Console only (SPEC §8). */
export const UPDATE_CHECK_FAILED = 'Failed to check for updates:';
