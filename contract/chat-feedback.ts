/**
 * 'Hur kändes chatten?' after a one-to-one chat ends (docs/decisions.md "Heard after the chat"): one
 * answer and at most one free text per ended chat, kept apart from who gave them. The server keeps
 * only a count per channel, ISO week and answer, and the texts with their channel and week: no
 * account, no conversation, no time of day.
 */

/** 'Det hjälpte', 'Vet inte', 'Det hjälpte inte', 'Hoppa över'. */
export const FEEDBACK_ANSWERS = ['helped', 'unsure', 'not_helped', 'skipped'] as const;
export type FeedbackAnswer = (typeof FEEDBACK_ANSWERS)[number];

/** 'Vill du berätta mer? (frivilligt)': at most this many characters. */
export const FEEDBACK_TEXT_MAX_LENGTH = 500;

/** An ISO week, `2026-W49`. */
export type IsoWeek = string;

/** What the administrator reads (GET /portal/staff/feedback): per channel and week. */
export interface FeedbackWeek {
  channel: number | null;
  /** The channel's name ('Chatt'); null for chats without a channel. */
  channelName: string | null;
  week: IsoWeek;
  counts: Record<FeedbackAnswer, number>;
}

export interface FeedbackText {
  channel: number | null;
  channelName: string | null;
  week: IsoWeek;
  text: string;
}

export interface FeedbackSummary {
  weeks: FeedbackWeek[];
  texts: FeedbackText[];
}
