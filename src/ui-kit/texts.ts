/** Swedish texts of the root shell and its footer (SPEC §2 Root shell). */
export const SHELL_TEXTS = {
  loading: 'Laddar...',
  pageFailed: 'Sidan kunde inte laddas. Kontrollera din internetuppkoppling och försök igen.',
  tryAgain: 'Försök igen',
  backTo: 'Gå tillbaka till',
  copyright: '© 2024',
  homeLogo: 'Till startsidan',
  opensInNewTab: '(öppnas i ny flik)',
  footerLinks: 'Länkar',
  skipToContent: 'Hoppa till innehållet',
  /** Ours: on every start page and in the chat queue, a tel: link. */
  emergency: 'Är det akut? Ring 112.',
} as const;
