/** Swedish texts of the install modal (SPEC §2 Install modal, spelled as there). */
export const INSTALL_TEXTS = {
  title: 'Installera på din telefon?',
  text: 'Vill du installera appen på din telefon för en bättre upplevelse?',
  cancel: 'Avbryt',
  install: 'Installera',
  // Ours: iPhone and iPad Safari install from their own share menu (src/pwa/install-steps.ts).
  iosIntro: 'Så gör du i Safari:',
  iosSteps: [
    'Tryck på Dela (fyrkanten med en pil uppåt).',
    'Välj Lägg till på hemskärmen.',
    'Tryck på Lägg till.',
  ],
  close: 'Stäng',
} as const;

/** Console only (SPEC §8). */
export const UPDATE_CHECK_FAILED = 'Failed to check for updates:';
