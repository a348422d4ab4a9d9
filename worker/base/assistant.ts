import type { AssistantContent } from '../../contract/assistant.ts';

/**
 * The virtual assistant's guided content, cached for offline use. Public, the same for
 * everyone: it stays at sign-out. What a child asks the assistant is never written here.
 */
export interface AssistantContentRow {
  id: 'current';
  content: AssistantContent;
  storedAt: number;
}

/** The public token as the tab keeps it in the `assistant-token` cookie (SPEC §3). */
export interface AssistantTokenValue {
  access_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
}
