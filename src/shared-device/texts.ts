/** Swedish texts of shared-device mode's idle sign-out (our texts, SPEC is silent). */
export const SHARED_DEVICE_TEXTS = {
  warningTitle: 'Du loggas snart ut. Vill du fortsätta?',
  warningText: 'Du har inte använt appen på en stund. Om du inte svarar loggas du ut om 2 minuter.',
  continue: 'Fortsätt',
  logOut: 'Logga ut',
} as const;
