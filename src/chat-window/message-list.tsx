import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react';
import { trustedHtml } from '../../client-kit/security/trusted-types.ts';
import { chatTextToHtml } from '../conversation-ui/chat-text.ts';
import { useApi } from '../data/index.ts';
import { secondaryButton } from '../styles/controls.ts';
import { sendStatusText, type ChatEntry } from './chat-messages.ts';
import * as s from './chat-window.styles.ts';
import { CHAT_TEXTS } from './texts.ts';
import { OVERSCAN_PX, VIRTUALISE_FROM_ROWS, meanHeight, rowOffsets, rowWindow } from './virtual-rows.ts';
import { SCROLL_TO_BOTTOM_DELAY_MS } from '../../contract/timings.ts';
import { NEW_MESSAGE_PROMPT_PX } from '../../contract/limits.ts';

function authorLabel(entry: ChatEntry): string {
  if (entry.label) return entry.label;
  if (entry.authorType === 'me') return CHAT_TEXTS.me;
  if (entry.authorType === 'info') return CHAT_TEXTS.info;
  return entry.authorName;
}

/** 'Försök igen' and 'Ta bort' under one's own message that the server refused. */
function RefusedActions({ clientId, messageId }: { clientId: string; messageId: string }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const act = (command: (id: string) => Promise<unknown>) => {
    setBusy(true);
    void command(clientId).finally(() => setBusy(false));
  };
  return (
    <span className={s.refusedActions}>
      <button
        type="button"
        className={s.textButton}
        aria-describedby={messageId}
        disabled={busy}
        onClick={() => act(api.retryChatMessage)}
      >
        {CHAT_TEXTS.retry}
      </button>
      <button
        type="button"
        className={s.textButton}
        aria-describedby={messageId}
        disabled={busy}
        onClick={() => act(api.removeChatMessage)}
      >
        {CHAT_TEXTS.remove}
      </button>
    </span>
  );
}

type MessageHtml = ReturnType<typeof trustedHtml>;

/**
 * A message's sanitised HTML, kept per list while it is shown: DOMPurify runs once per text, not on
 * every render of every row (windowed rows mount again as they scroll back in), and React sees the
 * same object, so it leaves the row's DOM alone.
 */
function useMessageHtml() {
  const cache = useRef(new Map<string, MessageHtml>());
  return useCallback((content: string) => {
    let html = cache.current.get(content);
    if (html === undefined) {
      html = trustedHtml(chatTextToHtml(content));
      cache.current.set(content, html);
    }
    return html;
  }, []);
}

/** Two entries that draw the same bubble (a list read again gives equal rows as new objects). */
function sameEntry(a: ChatEntry, b: ChatEntry): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as Array<keyof ChatEntry>;
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

type MessageProps = { entry: ChatEntry; html: MessageHtml; position?: number; setSize?: number };

const Message = memo(
  function Message({ entry, html, position, setSize }: MessageProps) {
    const status = sendStatusText(entry);
    const messageId = `message-${entry.key}`;
    const kind =
      entry.authorType === 'me'
        ? s.mine
        : entry.authorType === 'info' || entry.authorType === 'bot'
          ? s.info
          : '';
    return (
      <li
        className={`${s.bubble} ${kind}`}
        data-row={entry.key}
        {...(position !== undefined ? { 'aria-posinset': position, 'aria-setsize': setSize } : {})}
      >
        {(entry.label || (!entry.sameAuthorAsPreviousMessage && entry.authorType !== 'info')) && (
          <span className={s.author}>{authorLabel(entry)}</span>
        )}
        <p id={messageId} dangerouslySetInnerHTML={{ __html: html }} />
        {entry.createdAfterClosedConversation && <span className={s.status}>{CHAT_TEXTS.afterClosed}</span>}
        {status && (
          <span className={`${s.status} ${entry.sendStatus === 'failed' ? s.failed : ''}`} title={status}>
            {status}
          </span>
        )}
        {entry.sendStatus === 'failed' && entry.clientId && (
          <RefusedActions clientId={entry.clientId} messageId={messageId} />
        )}
      </li>
    );
  },
  (before: MessageProps, after: MessageProps) =>
    before.html === after.html &&
    before.position === after.position &&
    before.setSize === after.setSize &&
    sameEntry(before.entry, after.entry),
);

/** Older rows are asked for while the list's top is within this many screens of the viewport. */
const OLDER_WITHIN_SCREENS = 1;

/**
 * Asks for older rows as the list nears its top: from the scroll handler it answers, and after every
 * render (a first page that does not fill the list asks at once). A list that scrolls with its page
 * watches a marker at its top instead.
 */
function useNearStart(
  list: RefObject<HTMLUListElement | null>,
  windowed: boolean,
  older: { count: number; load(): void } | undefined,
) {
  const latest = useRef(older);
  latest.current = older;
  const check = useCallback(() => {
    const el = list.current;
    const wanted = latest.current;
    if (!el || !wanted || wanted.count === 0 || !windowed) return;
    // Not while it is laid out at no height (its window still opening): it would read page after page.
    if (el.clientHeight > 0 && el.scrollTop <= el.clientHeight * OLDER_WITHIN_SCREENS) wanted.load();
  }, [list, windowed]);
  useEffect(check);
  useEffect(() => {
    const el = list.current;
    if (windowed || !el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting) && latest.current?.count) latest.current.load();
      },
      { rootMargin: `${100 * OLDER_WITHIN_SCREENS}% 0px 0px 0px` },
    );
    const marker = el.querySelector(':scope > li[data-older]');
    if (marker) observer.observe(marker);
    return () => observer.disconnect();
  });
  return check;
}

/**
 * Older rows came in above the ones on screen: the list scrolls down by what they added above the
 * row it showed first, before the browser paints, so the child keeps their place (a list that
 * follows its newest message does not need to). The row is found by its key where it is in the page;
 * a windowed list answers where a row lies (`contentTopOf`, from its offsets) also where it is not,
 * and is told its new position (`setScroll`).
 */
function useKeepPlaceAsOlderCome(
  list: RefObject<HTMLUListElement | null>,
  entries: readonly ChatEntry[],
  awayRef: RefObject<boolean>,
  windowed: {
    contentTopOf(key: string): number | undefined;
    setScroll(scroll: { top: number; viewport: number }): void;
  } | null,
) {
  const firstKey = useRef(entries[0]?.key);
  /** The first row in view at the last commit, and its top within the list's content. */
  const anchor = useRef<{ key: string; top: number } | null>(null);
  const contentTop = (el: HTMLElement, key: string) => {
    const fromOffsets = windowed?.contentTopOf(key);
    if (fromOffsets !== undefined) return fromOffsets;
    const row = el.querySelector(`:scope > li[data-row="${CSS.escape(key)}"]`);
    return row ? topOf(row) - topOf(el) + el.scrollTop : undefined;
  };
  useLayoutEffect(() => {
    const el = list.current;
    const previous = firstKey.current;
    firstKey.current = entries[0]?.key;
    const kept = anchor.current;
    if (!el || !kept || previous === undefined || previous === entries[0]?.key || !awayRef.current) return;
    if (entries.findIndex((e) => e.key === previous) <= 0) return;
    const now = contentTop(el, kept.key);
    if (now === undefined) return;
    el.scrollTop += now - kept.top;
    windowed?.setScroll({ top: el.scrollTop, viewport: el.clientHeight });
  });
  // After every commit (this one's adjustment included): where the first row in view lies, for the
  // next commit to keep. Only while scrolled away from the newest message: otherwise nothing is kept.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !awayRef.current) {
      anchor.current = null;
      return;
    }
    const box = el.getBoundingClientRect();
    const row = [...el.querySelectorAll<HTMLLIElement>(':scope > li[data-row]')].find(
      (r) => r.getBoundingClientRect().bottom > box.top,
    );
    const key = row?.dataset['row'];
    anchor.current = row && key ? { key, top: topOf(row) - box.top + el.scrollTop } : null;
  });
}

/** Where a rendered row's top is, in the list's own coordinates (fractional, so measuring is stable). */
const topOf = (el: Element) => el.getBoundingClientRect().top;

/** What a screen reader hears of a new message when the list is windowed (the rows come and go). */
export function announcement(entry: ChatEntry): string {
  const author = entry.authorType === 'info' && !entry.label ? '' : `${authorLabel(entry)}: `;
  return `${author}${entry.content}`;
}

/**
 * The message list; keeps to the bottom unless the user scrolled up (then a prompt shows). A list of
 * VIRTUALISE_FROM_ROWS rows or more is windowed: only the rows near the viewport are in the DOM, with
 * spacers of the other rows' measured (or estimated) height, so a history of 10,000 messages opens and
 * scrolls as fast as one of 50. A windowed list announces new messages through its own live region,
 * as rows entering the DOM while scrolling must not be read out.
 */
export function MessageList({
  entries,
  className = '',
  windowed = true,
  older,
}: {
  entries: readonly ChatEntry[];
  /** More classes for the list (a bounded height where it sits in a scrolling page or modal). */
  className?: string;
  /** false where the list does not scroll by itself but with its page (a mail thread). */
  windowed?: boolean;
  /**
   * Older messages not read yet (src/data/chat-pages.ts): how many, and how to read more. They are
   * asked for as the list nears its top; the rows on screen stay where they are as they come.
   */
  older?: { count: number; load(): void };
}) {
  const list = useRef<HTMLUListElement>(null);
  const [away, setAway] = useState(false);
  const awayRef = useRef(false);
  /** The list's height when it last resized (onScroll tells a resize's scroll from the child's). */
  const followedHeight = useRef(0);
  const virtual = windowed && entries.length >= VIRTUALISE_FROM_ROWS;
  const measured = useRef(new Map<string, number>());
  const [measureVersion, setMeasureVersion] = useState(0);
  const [scroll, setScroll] = useState({ top: 0, viewport: 0 });
  const htmlOf = useMessageHtml();

  const scrollToBottom = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  // A new message scrolls into view after SCROLL_TO_BOTTOM_DELAY_MS; rows read in a batch (the
  // chat's first rows, its newest rows and then the rest) are shown at once, before the next paint.
  const shownLength = useRef(entries.length);
  useLayoutEffect(() => {
    const before = shownLength.current;
    shownLength.current = entries.length;
    if (awayRef.current) return;
    if (entries.length - before > 1 || before <= 1) {
      scrollToBottom();
      return;
    }
    const timer = setTimeout(scrollToBottom, SCROLL_TO_BOTTOM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [entries.length]);

  useEffect(() => scrollToBottom(), []);

  // The list is mounted before its window opens (a minimised chat, a dialog shown by its parent's
  // effect), and it changes size when the keyboard opens on a phone: whenever its size changes, a
  // list that follows its newest message goes back to it at once.
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      followedHeight.current = el.clientHeight;
      if (!awayRef.current) scrollToBottom();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const offsets = useMemo(() => {
    if (!virtual) return null;
    const heights = measured.current;
    const estimate = meanHeight(heights);
    return rowOffsets(entries.length, (i) => heights.get(entries[i]!.key) ?? estimate);
    // measureVersion: the heights map (a ref) changed.
  }, [virtual, entries, measureVersion]);

  const rows = offsets
    ? rowWindow(offsets, scroll.top, scroll.viewport || window.innerHeight, OVERSCAN_PX, !away)
    : { start: 0, end: entries.length, before: 0, after: 0, total: 0 };

  // Measure the rendered rows (top of one to the top of the next, margins included); keep to the
  // bottom while following when the heights turn out other than estimated.
  useLayoutEffect(() => {
    const el = list.current;
    if (!virtual || !el) return;
    const rendered = [...el.querySelectorAll<HTMLLIElement>(':scope > li[data-row]')];
    const heights = measured.current;
    let changed = false;
    let gap: number | undefined;
    rendered.forEach((row, i) => {
      const next = rendered[i + 1];
      const height = row.getBoundingClientRect().height;
      let pitch: number;
      if (next) {
        pitch = topOf(next) - topOf(row);
        gap ??= pitch - height;
      } else {
        pitch = height + (gap ?? 0);
      }
      const key = row.dataset['row']!;
      if (pitch > 0 && Math.abs((heights.get(key) ?? -1) - pitch) > 0.5) {
        heights.set(key, pitch);
        changed = true;
      }
    });
    if (changed) {
      setMeasureVersion((v) => v + 1);
      if (!awayRef.current) scrollToBottom();
    }
  });

  useKeepPlaceAsOlderCome(
    list,
    entries,
    awayRef,
    offsets
      ? {
          contentTopOf: (key) => {
            const index = entries.findIndex((e) => e.key === key);
            return index === -1 ? undefined : offsets[index];
          },
          setScroll,
        }
      : null,
  );
  const nearStart = useNearStart(list, windowed, older);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    // A scroll that comes with a new height is the list's resizing, not the child: Chromium puts a
    // list that shrinks (the keyboard opening) back at its top. One that followed keeps following.
    if (el.clientHeight !== followedHeight.current) {
      followedHeight.current = el.clientHeight;
      if (!awayRef.current && el.scrollTop + el.clientHeight < el.scrollHeight) {
        scrollToBottom();
        return;
      }
    }
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    awayRef.current = distance > NEW_MESSAGE_PROMPT_PX;
    setAway(awayRef.current);
    if (virtual) setScroll({ top: el.scrollTop, viewport: el.clientHeight });
    nearStart();
  };
  const unread = older?.count ?? 0;

  const last = entries[entries.length - 1];
  const [announced, setAnnounced] = useState<{ key: string | undefined; text: string }>({
    key: last?.key,
    text: '',
  });
  if (virtual && last && last.key !== announced.key) {
    setAnnounced({ key: last.key, text: last.authorType === 'me' ? '' : announcement(last) });
  }

  return (
    <>
      <ul
        ref={list}
        className={`${s.messages} ${className}`}
        aria-label={CHAT_TEXTS.messages}
        aria-live={virtual ? undefined : 'polite'}
        onScroll={onScroll}
        // A list that scrolls itself keeps its place as older rows come (useKeepPlaceAsOlderCome),
        // not also the browser's scroll anchoring, which would move it twice.
        style={windowed ? { overflowAnchor: 'none' } : undefined}
        tabIndex={0}
      >
        {!windowed && unread > 0 && <li role="presentation" aria-hidden="true" data-older="" />}
        {virtual && <li role="presentation" aria-hidden="true" style={{ height: rows.before }} />}
        {entries.slice(rows.start, rows.end).map((entry, i) => (
          <Message
            key={entry.key}
            entry={entry}
            html={htmlOf(entry.content)}
            // Each row's place in the whole chat where only part of it is in the page (windowed, or
            // older rows not read yet).
            {...(virtual || unread > 0
              ? { position: unread + rows.start + i + 1, setSize: unread + entries.length }
              : {})}
          />
        ))}
        {virtual && <li role="presentation" aria-hidden="true" style={{ height: rows.after }} />}
        {away && (
          <li className={s.newMessages}>
            <button type="button" className={secondaryButton} onClick={scrollToBottom}>
              {CHAT_TEXTS.showNewMessages}
            </button>
          </li>
        )}
      </ul>
      {virtual && (
        <p className="visually-hidden" aria-live="polite">
          {announced.text}
        </p>
      )}
    </>
  );
}
