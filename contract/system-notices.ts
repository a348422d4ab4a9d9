import { mailPaths } from './mail-paths.ts';
import type { VariantFeatures } from './variant.ts';

/**
 * System notifications (ours; SPEC §2 says only that new messages in a minimised chat raise one):
 * what the data worker asks a tab to show, what the service worker opens when one is clicked, and
 * the one neutral text. A notice may be read on a lock screen by whoever holds the phone, so it never
 * carries message text, a name or the provider's name.
 */

/** The only text a notice shows, as its title, with no body. */
export const NOTICE_TITLE = 'Du har ett nytt meddelande';

/** The hash that opens the child's chat window on any page (the chat has no route of its own). */
export const CHAT_NOTICE_HASH = '#chatt';

/**
 * Where a click on a notice leads: the chat window over the start page, or the mail thread on the
 * variant's mail route (in Peers `/mina-sidor/inlagg/` is a post for other young people).
 */
export const noticeUrl = {
  chat: `/start${CHAT_NOTICE_HASH}`,
  thread: (features: Pick<VariantFeatures, 'peers'>, conversationId: number) =>
    mailPaths(features).thread(conversationId),
} as const;

/** One notice per conversation: a newer one replaces the last instead of piling up. */
export const noticeTag = (conversationId: number) => `conversation-${conversationId}`;

export interface SystemNotice {
  title: typeof NOTICE_TITLE;
  tag: string;
  /** A path of the app, opened when the notice is clicked. */
  url: string;
}

/** The notice about the child's one-to-one chat: it opens the chat window. */
export const chatNotice = (conversationId: number): SystemNotice => ({
  title: NOTICE_TITLE,
  tag: noticeTag(conversationId),
  url: noticeUrl.chat,
});

/** The notice about an answered mail: it opens the thread. */
export const threadNotice = (
  features: Pick<VariantFeatures, 'peers'>,
  conversationId: number,
): SystemNotice => ({
  title: NOTICE_TITLE,
  tag: noticeTag(conversationId),
  url: noticeUrl.thread(features, conversationId),
});

/** The service worker to a tab, after a click on a notice: go to `url` inside the running app. */
export interface OpenNoticeMessage {
  type: 'open-notice';
  url: string;
}

/** The push sent when a counsellor takes the child's chat: the only other text a notice shows. */
export const YOUR_TURN_TITLE = 'Det är din tur';

/** What a Web Push carries (and all it carries): a notice, as the tabs show them. */
export interface PushNotice {
  title: typeof NOTICE_TITLE | typeof YOUR_TURN_TITLE;
  tag: string;
  url: string;
}

/** The push when a counsellor takes the chat: it opens the chat window, and replaces any notice of it. */
export const yourTurnNotice = (conversationId: number): PushNotice => ({
  title: YOUR_TURN_TITLE,
  tag: noticeTag(conversationId),
  url: noticeUrl.chat,
});
