/** Swedish texts of the conversation lists that mail and my pages share (SPEC §2 /mina-sidor). */
export const CONVERSATION_UI_TEXTS = {
  /** A mail written offline, kept until it is sent. */
  pending: 'Väntar på att skickas',
  pendingWaiting: 'Du har skickat många meddelanden på kort tid. Meddelandet skickas om en stund.',
} as const;
