import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Dexie, { liveQuery, type Subscription } from 'dexie';
import type { PortalDb } from '../../worker/client/db.ts';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import { useDb } from './index.ts';

/**
 * A chat's rows as a list that opens at its newest message reads them (docs/decisions.md, "Long
 * chats are read in pages"): the newest CHAT_PAGE_ROWS at once, older ones only as the child scrolls
 * up to them, so a 10,000-message history opens as fast as a short one. Each page is a live query of
 * its own over a range of the `[conversation+loggedDate]` index: a new message re-reads the newest
 * page alone, and rows are opened in one batch per page (worker/base/at-rest.ts).
 *
 * How pages are cut: the newest page is "the newest CHAT_PAGE_ROWS" (a live query that follows the
 * cache as the worker fills it) until it is full; then it is fixed from its oldest row's date on,
 * ties included, and grows with new messages instead of letting rows fall out of it. An older page is
 * the CHAT_PAGE_ROWS rows before the oldest page's date, fixed the same way. So no row is in two
 * pages and none falls between them, and whether older rows exist is a live count of the rows
 * before the oldest page (the worker may write them after the page was cut). The child's own unsent
 * rows (`local:` keys, dated by the device's clock, shown last whatever their date) are read apart.
 */
export const CHAT_PAGE_ROWS = 40;

const LOCAL_PREFIX = 'local:';
const isServerRow = (row: ChatMessageRow | undefined): row is ChatMessageRow =>
  row !== undefined && !row.key.startsWith(LOCAL_PREFIX);

/** The page of rows dated from `from` (inclusive) up to `to` (exclusive; null: no end). */
interface PageRange {
  from: string;
  to: string | null;
}

const rangeKey = (range: PageRange) => `${range.from}|${range.to ?? ''}`;

const indexRange = (db: PortalDb, conversationId: number, from: string, to: string | null) =>
  db.chatMessages
    .where('[conversation+loggedDate]')
    .between([conversationId, from], [conversationId, to ?? '\uffff'], true, to === null);

/** A fixed page's rows (one index read, the rows opened in one batch). */
async function readPage(db: PortalDb, conversationId: number, range: PageRange): Promise<ChatMessageRow[]> {
  return (await indexRange(db, conversationId, range.from, range.to).toArray()).filter(isServerRow);
}

/**
 * The CHAT_PAGE_ROWS rows before `to` (null: the newest), oldest first: their keys from the index
 * (no row opened), then the rows in one batch; and the page they make, from the oldest one's date on.
 */
async function readBefore(
  db: PortalDb,
  conversationId: number,
  to: string | null,
): Promise<{ range: PageRange | null; rows: ChatMessageRow[]; full: boolean }> {
  const keys = (await indexRange(db, conversationId, '', to)
    .reverse()
    .limit(CHAT_PAGE_ROWS)
    .primaryKeys()) as string[];
  keys.reverse();
  const rows = (await db.chatMessages.bulkGet(keys)).filter(isServerRow);
  const oldest = rows[0]?.loggedDate;
  return { range: oldest === undefined ? null : { from: oldest, to }, rows, full: keys.length >= CHAT_PAGE_ROWS };
}

type PageRead = Awaited<ReturnType<typeof readBefore>>;

/**
 * The last read ahead of a window, by conversation: the read, and its rows once they are in. The
 * window shows them from its first render (while its own live read has not answered yet).
 */
const readAhead = new Map<number, { read: Promise<PageRead>; at: number; done?: PageRead }>();

/** A read ahead this recent is the one the window shows (the tap's click follows its finger down). */
const READ_AHEAD_FRESH_MS = 1_000;

/**
 * Reads a chat's newest page ahead of its window: the window shows these rows from its first render
 * until its own live read answers (which then finds them opened, so it only parses them). Read when
 * the child taps to open it, and, for a chat going on, once the page is idle after its first screen
 * (docs/decisions.md, "Long chats are read in pages"). The next read replaces it; a window that
 * shows it after new messages came shows them a moment later, with its own read.
 */
export async function readNewestPage(db: PortalDb, conversationId: number): Promise<void> {
  const last = readAhead.get(conversationId);
  if (last && Date.now() - last.at < READ_AHEAD_FRESH_MS) {
    await last.read;
    return;
  }
  const entry: { read: Promise<PageRead>; at: number; done?: PageRead } = {
    read: readBefore(db, conversationId, null),
    at: Date.now(),
  };
  readAhead.set(conversationId, entry);
  try {
    entry.done = await entry.read;
  } catch (error) {
    if (readAhead.get(conversationId) === entry) readAhead.delete(conversationId);
    throw error;
  }
}

/** Forgets what was read ahead of every window (a sign-out: nothing of the chat stays in memory). */
export function forgetReadAhead(): void {
  readAhead.clear();
}

/** The read ahead of `conversationId`'s window: at once where it is in already, else once it is. */
function useReadAhead(conversationId: number | null): PageRead | undefined {
  const [ahead, setAhead] = useState<{ of: number | null; read: PageRead | undefined }>(() => ({
    of: conversationId,
    read: conversationId === null ? undefined : readAhead.get(conversationId)?.done,
  }));
  useEffect(() => {
    if (conversationId === null) return;
    let current = true;
    void readAhead.get(conversationId)?.read.then(
      (read) => current && setAhead((last) => (last.of === conversationId && last.read ? last : { of: conversationId, read })),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId]);
  return ahead.of === conversationId ? ahead.read : undefined;
}

/** How many rows are dated before `to` (read from the index alone: no row opened). */
const countBefore = (db: PortalDb, conversationId: number, to: string) =>
  indexRange(db, conversationId, '', to).count();

/** The child's own rows the server has not accepted yet, in this conversation (few: the outbox). */
async function readLocalRows(db: PortalDb, conversationId: number): Promise<ChatMessageRow[]> {
  const rows = await db.chatMessages.where('key').startsWith(LOCAL_PREFIX).toArray();
  return rows.filter((r) => r.conversation === conversationId);
}

const countRows = (db: PortalDb, conversationId: number) =>
  db.chatMessages
    .where('[conversation+loggedDate]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
    .count();

export interface ChatPages {
  /** The rows read so far (unsorted; chatEntries sorts), undefined until the newest page is read. */
  rows: ChatMessageRow[] | undefined;
  /** How many rows the chat holds on this device, read from the index alone. */
  total: number | undefined;
  /** Older rows than those read exist. */
  hasOlder: boolean;
  /** Reads the next older page (nothing while one is being read, or when there is none). */
  loadOlder(): void;
}

/** One live query per entry of `queries`, by key; the results by key (kept while a query runs again). */
function useLiveQueries(queries: ReadonlyMap<string, () => Promise<unknown>>): ReadonlyMap<string, unknown> {
  const [results, setResults] = useState<ReadonlyMap<string, unknown>>(new Map());
  const subscriptions = useRef(new Map<string, Subscription>());
  // After the window's first paint: it draws from the read ahead of it, and its own reads follow.
  useEffect(() => {
    const live = subscriptions.current;
    for (const [key, subscription] of live) {
      if (queries.has(key)) continue;
      subscription.unsubscribe();
      live.delete(key);
    }
    for (const [key, query] of queries) {
      if (live.has(key)) continue;
      live.set(
        key,
        liveQuery(query).subscribe({
          next: (value) => setResults((last) => new Map(last).set(key, value)),
          error: (error: unknown) => console.error('Chat rows not read', error),
        }),
      );
    }
  }, [queries]);
  useEffect(
    () => () => {
      for (const subscription of subscriptions.current.values()) subscription.unsubscribe();
      subscriptions.current.clear();
    },
    [],
  );
  return results;
}

interface Paging {
  of: number | null;
  /**
   * The fixed pages, newest first, each with what the read that cut it found (shown until its own
   * live query answers). None while the newest page is still "the newest CHAT_PAGE_ROWS".
   */
  pages: Array<{ range: PageRange; first: ChatMessageRow[] }>;
}

const startPaging = (of: number | null): Paging => ({ of, pages: [] });

const NEWEST = 'newest';
const NO_ROWS: ChatMessageRow[] = [];

/**
 * The chat's rows, paged (see CHAT_PAGE_ROWS). `conversationId` null, or `enabled` false (a window
 * not on screen), reads nothing.
 */
export function useChatPages(conversationId: number | null, enabled = true): ChatPages {
  const db = useDb();
  // Whose rows are read: none while the chat is not shown; shown again, it starts from its newest page.
  const owner = enabled ? conversationId : null;
  const [paging, setPaging] = useState<Paging>(() => startPaging(owner));
  const current = paging.of === owner ? paging : startPaging(owner);
  if (current !== paging) setPaging(current);
  const reading = useRef<number | null>(null);
  const oldest = current.pages[current.pages.length - 1];

  const queries = useMemo(() => {
    const map = new Map<string, () => Promise<unknown>>();
    if (owner === null) return map;
    map.set(`${owner}:count`, () => countRows(db, owner));
    map.set(`${owner}:local`, () => readLocalRows(db, owner));
    if (!oldest) map.set(`${owner}:${NEWEST}`, () => readBefore(db, owner, null));
    else map.set(`${owner}:before:${oldest.range.from}`, () => countBefore(db, owner, oldest.range.from));
    for (const { range } of current.pages) map.set(`${owner}:${rangeKey(range)}`, () => readPage(db, owner, range));
    return map;
  }, [db, owner, oldest, current.pages]);
  const results = useLiveQueries(queries);

  // The newest page, once full, is cut: from then on it grows with new messages, rows never fall out.
  const ahead = useReadAhead(owner);
  const newest =
    (results.get(`${owner}:${NEWEST}`) as PageRead | undefined) ?? ahead;
  const cut = !oldest && newest?.full && newest.range ? { range: newest.range, first: newest.rows } : null;
  useEffect(() => {
    if (cut) setPaging((state) => (state.of === owner && state.pages.length === 0 ? { of: owner, pages: [cut] } : state));
  }, [cut, owner]);

  const reads: Array<ChatMessageRow[] | undefined> = oldest
    ? current.pages.map(
        ({ range, first }) => (results.get(`${owner}:${rangeKey(range)}`) as ChatMessageRow[] | undefined) ?? first,
      )
    : [newest?.rows];
  // The child's unsent rows come a moment after the page, rather than holding it up (few, and last).
  const local = (results.get(`${owner}:local`) as ChatMessageRow[] | undefined) ?? NO_ROWS;
  const total = results.get(`${owner}:count`) as number | undefined;
  const before = oldest ? (results.get(`${owner}:before:${oldest.range.from}`) as number | undefined) : 0;
  const rows = useMergedRows(owner !== null && reads[0] && local ? [...reads, local] : null);

  // Until the count for a page just read is in, there may be more: a full page came back.
  const hasOlder = owner !== null && !!oldest && (before === undefined || before > 0);
  const from = oldest?.range.from;
  const loadOlder = useCallback(() => {
    if (!hasOlder || from === undefined || owner === null || reading.current === owner) return;
    reading.current = owner;
    const done = () => {
      if (reading.current === owner) reading.current = null;
    };
    readBefore(db, owner, from).then(
      ({ range, rows: read }) => {
        done();
        if (!range) return;
        setPaging((state) =>
          state.of === owner && state.pages[state.pages.length - 1]?.range.from === from
            ? { of: owner, pages: [...state.pages, { range, first: read }] }
            : state,
        );
      },
      (error: unknown) => {
        done();
        console.error('Chat rows not read', error);
      },
    );
  }, [db, owner, hasOlder, from]);

  return { rows, total: owner === null ? undefined : total, hasOlder, loadOlder };
}

/**
 * The rows of every read (the pages' and the local ones) as one array, the same array while no read
 * changed: a list's memo depends on it.
 */
function useMergedRows(reads: ReadonlyArray<ChatMessageRow[] | undefined> | null): ChatMessageRow[] | undefined {
  const last = useRef<{ reads: ReadonlyArray<unknown>; rows: ChatMessageRow[] } | null>(null);
  if (!reads) return undefined;
  const kept = last.current;
  if (kept && kept.reads.length === reads.length && kept.reads.every((read, i) => read === reads[i]))
    return kept.rows;
  const byKey = new Map<string, ChatMessageRow>();
  for (const read of reads) for (const row of read ?? []) byKey.set(row.key, row);
  const rows = [...byKey.values()];
  last.current = { reads, rows };
  return rows;
}

/** What a message list needs to read older rows (MessageList's `older`), or undefined when there are none. */
export function olderOf(pages: ChatPages): { count: number; load(): void } | undefined {
  if (!pages.hasOlder || !pages.rows) return undefined;
  return { count: Math.max(1, (pages.total ?? 0) - pages.rows.length), load: pages.loadOlder };
}
