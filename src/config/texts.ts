/** Swedish texts shown while the runtime config loads (SPEC.md spelling where SPEC has one). */
export const CONFIG_TEXTS = {
  loading: 'Laddar...',
  errorHeading: 'Något gick fel',
  loadError: 'Appen kunde inte startas. Kontrollera din internetuppkoppling och ladda om sidan.',
  reload: 'Ladda om sidan',
} as const;
