/** Swedish texts of the quick exit (ours: SPEC is silent on it). */
export const QUICK_EXIT_TEXTS = {
  leave: 'Lämna sidan',
  /** Its description for screen readers: what it does and the keyboard way. */
  hint: 'Lämnar sidan direkt och öppnar en annan webbplats. Du kan också trycka på Skift tre gånger.',
} as const;
