/**
 * The virtual assistant's wire contract: the public access token, the guided content the
 * provider edits without a build (server/assistant/content.sv.json), and the free-text match.
 * The schemas the server validates with are in contract/schemas/assistant.ts.
 */

/** Ours: a question to the assistant is at most 500 characters. */
export const ASSISTANT_QUESTION_MAX_LENGTH = 500;
/**
 * SPEC §6, §9: the public access token lives 4 hours (14400 s), as long as the cookie that keeps it
 * (SPEC §3: JSON in the cookie `assistant-token`); the client renews it at TOKEN_TIMEOUT_FACTOR.
 */
export const ASSISTANT_TOKEN_SECONDS = 14_400;
export const ASSISTANT_TOKEN_COOKIE = 'assistant-token';
export const ASSISTANT_TOKEN_COOKIE_SECONDS = ASSISTANT_TOKEN_SECONDS;

/** Where a path of the conversation may lead: every answer ends in at least one of them. */
export const ASSISTANT_NEXT_STEPS = ['chat', 'write', 'read-more', 'call-112'] as const;
export type AssistantNextStep = (typeof ASSISTANT_NEXT_STEPS)[number];

export interface AssistantTopic {
  id: string;
  title: string;
  /** Lower-case words or phrases; a question holding one of them is about this topic. */
  keywords: string[];
  answer: string;
  /** 'Läs mer': a longer text shown in the panel (so it also works offline). */
  more?: string;
  nextSteps: AssistantNextStep[];
}

/** The content file, as the server serves it (GET {api}/api/assistant/content). */
export interface AssistantContent {
  version: string;
  greeting: string;
  /** The answer to a question that matches no topic; its next steps lead to a counsellor. */
  unmatched: { answer: string; nextSteps: AssistantNextStep[] };
  topics: AssistantTopic[];
}

/** POST {api}/api/assistant/token answers this (no refresh token: a new one is asked for instead). */
export interface AssistantTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: 'assistant';
}

/** POST {api}/api/assistant/ask: the topic the question matched, or null and the counsellor paths. */
export interface AssistantAnswer {
  topicId: string | null;
  answer: string;
  nextSteps: AssistantNextStep[];
  version: string;
}
