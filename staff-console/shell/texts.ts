/** Swedish texts of the console's frame. */
export const SHELL_TEXTS = {
  title: 'Personal',
  consoleName: 'Personalkonsol',
  signOut: 'Logga ut',
  signingOut: 'Loggar ut...',
  signedInAs: 'Inloggad som',
  navLabel: 'Delar av konsolen',
  counsellor: 'Kurator',
  groupLeader: 'Gruppledare',
  moderation: 'Moderering',
  /** Ours: the administrator's 'Hur kändes chatten?' figures. */
  feedback: 'Återkoppling',
  noRole: 'Ditt konto har ingen roll i personalkonsolen.',
  loadingConfig: 'Laddar...',
  configFailed: 'Det gick inte att starta konsolen. Ladda om sidan för att försöka igen.',
  skipToContent: 'Hoppa till innehållet',
} as const;
