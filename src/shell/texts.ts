/** Swedish texts of the root shell and its footer (SPEC §2 Root shell). */
export const SHELL_TEXTS = {
  loading: 'Laddar...',
  backTo: 'Gå tillbaka till',
  copyright: '© 2024',
  homeLogo: 'Till startsidan',
  opensInNewTab: '(öppnas i ny flik)',
  footerLinks: 'Länkar',
  skipToContent: 'Hoppa till innehållet',
} as const;
