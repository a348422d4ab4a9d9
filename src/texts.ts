/** Swedish texts of the start page (SPEC.md spelling). */
export const START_TEXTS = {
  loading: 'Laddar...',
  configError: 'Något blev fel. Försök igen.',
  backTo: 'Gå tillbaka till',
} as const;
