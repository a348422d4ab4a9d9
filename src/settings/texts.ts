/** Swedish texts of the settings page (SPEC §2 /installningar). */
export const SETTINGS_TEXTS = {
  heading: 'Inställningar',
  account: 'Konto',
  signedInAs: 'Inloggad som',
  app: 'Om appen',
  version: 'Version',
} as const;
