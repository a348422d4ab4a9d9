/** Swedish messages for failed staff API calls when the server gives none. */
export const API_ERROR_TEXTS = {
  network: 'Kunde inte nå servern. Kontrollera internetuppkopplingen och försök igen.',
  unauthorized: 'Din session har gått ut. Logga in igen.',
  forbidden: 'Du har inte behörighet att göra det här.',
  notFound: 'Hittades inte.',
  conflict: 'Det gick inte just nu, någon annan kan ha hunnit före. Försök igen.',
  generic: 'Något blev fel. Försök igen.',
} as const;

export const HUB_TEXTS = {
  unstable: 'Internetuppkopplingen verkar svajig. Testa att ladda om sidan om upplever problem med chatten',
} as const;
