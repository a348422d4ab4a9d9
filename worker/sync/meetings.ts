import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import type { Meeting, MeetingAppendix, MeetingMessage, ValueList } from '../../contract/meetings.ts';
import { MESSAGE_TYPE } from '../../contract/meetings.ts';
import type { LoadResult, UploadError, UploadRow } from '../base/group-support.ts';
import { done, failure, ok, type Result, type WriteResult } from '../base/result.ts';
import type { OutboxRow } from '../base/db.ts';
import { isHttpError } from '../http/http-error.ts';
import { keyedThrottle } from '../hub/throttle.ts';
import { RefCounts } from '../base/ref-counts.ts';
import { idOf, meetingsBase, type SyncContext } from './sync-context.ts';
import { asLoadResult, isGone, loadErrorOf, writeErrorOf } from './load-result.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';
import { isAntiForgeryAnswer } from '../http/http-client.ts';
import { isFinal } from '../../contract/conversation-state.ts';
import { isMeetingOver } from '../../contract/meeting-state.ts';

/** How a meeting's group chat is fetched (ConversationMessages'). */
export interface GroupConversationLoader {
  loadConversation(conversationId: number): Promise<void>;
}

/** Bursts of meeting events (a leader editing) cause one refetch a second per meeting. */
const MEETING_THROTTLE_MS = 1000;
export const MEETING_MESSAGE_KIND = 'meetingmessage';

/** The multipart form of POST meetingmessage, built from the fields the outbox stores as JSON. */
export function meetingMessageForm(fields: Record<string, string | Blob>, fileName?: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.set(name, value);
    else form.set(name, value, fileName ?? 'fil');
  }
  return form;
}

/** SPEC §2 meeting list and detail, §7 Meetings: meetings, appendices and private messages in Dexie. */
export class MeetingsSync implements SyncModule {
  readonly commands = {
    /** GET meetings into Dexie (all meetings of the user's series); the cached list is replaced. */
    loadMeetings: () => this.loadMeetings(),
    /**
     * GET meeting, appendices and the user's meeting messages into Dexie. Offline keeps the cache;
     * forbidden and not_found remove the meeting's rows.
     */
    loadMeeting: (meetingId: number) => this.loadMeeting(meetingId),
    /** A private message to the group leaders (text only), directly or through the outbox. */
    sendPrivateMessage: (meetingId: number, text: string) => this.sendPrivateMessage(meetingId, text),
    /** Multipart upload with progress in the `uploads` table. */
    uploadHomework: (meetingId: number, file: Blob, fileName: string) =>
      this.uploadHomework(meetingId, file, fileName),
    deleteMeetingMessage: (meetingId: number, meetingMessageId: number) =>
      this.deleteMeetingMessage(meetingId, meetingMessageId),
    /** Downloads a file for the UI to save. */
    downloadAppendix: (meetingId: number, appendixId: number) => this.downloadAppendix(meetingId, appendixId),
    downloadMeetingMessageFile: (meetingId: number, meetingMessageId: number, fileName: string) =>
      this.downloadMeetingMessageFile(meetingId, meetingMessageId, fileName),
    /** Subscribes to a meeting card's updates (SPEC: 2 s after showing) or stops. */
    watchMeeting: (meetingId: number, watching: boolean) => done(this.watchMeeting(meetingId, watching)),
  };

  readonly tables: SyncModule['tables'];
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers;
  readonly outboxKinds = {
    // Private meeting messages are multipart; the outbox stores their fields as JSON.
    [MEETING_MESSAGE_KIND]: {
      send: (row: OutboxRow, headers: Record<string, string>) =>
        this.ctx.http.postMultipart(row.path, meetingMessageForm(row.body as Record<string, string>), {
          headers,
        }),
    },
  };
  /** Meetings a page shows (several tabs may show one), for the catch-up after a blip. */
  private readonly watched = new RefCounts<number>();
  /**
   * Every read and write of the meeting rows runs one after another: a refetch that was under way
   * when a newer answer (or a deletion) arrived would otherwise write its older copy over it, and
   * nothing would correct it until the next event.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly refetchMeeting: (key: string) => void;
  private readonly refetchList: (key: string) => void;

  constructor(
    private readonly ctx: SyncContext,
    private readonly conversations?: GroupConversationLoader,
  ) {
    const { db } = ctx;
    this.tables = [db.meetings, db.meetingMessages, db.appendices, db.uploads];
    this.refetchMeeting = keyedThrottle(ctx.clock, MEETING_THROTTLE_MS, (key) => {
      void this.refreshMeeting(Number(key));
    });
    this.refetchList = keyedThrottle(ctx.clock, MEETING_THROTTLE_MS, () => void this.loadMeetings());
    const changed = (data: unknown) => {
      const id = idOf(data, 'id', 'meetingId');
      if (id !== null) this.refetchMeeting(String(id));
      this.refetchList('list');
    };
    this.hears = {
      [HUB_EVENTS.meetingCreated]: changed,
      [HUB_EVENTS.meetingUpdated]: changed,
      [HUB_EVENTS.meetingDeleted]: (data) => {
        const id = idOf(data, 'id', 'meetingId');
        // Queued, not awaited: it runs after a refetch under way, which must not hold up the event.
        if (id !== null) void this.serial(() => this.removeMeeting(id));
      },
    };
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Replaces the cached list: a meeting the server no longer returns is gone for this user. */
  loadMeetings(): Promise<LoadResult> {
    return this.serial(() => this.loadMeetingsNow());
  }

  private loadMeetingsNow(): Promise<LoadResult> {
    return asLoadResult(async () => {
      const { value } = await this.ctx.http.get<ValueList<Meeting>>(`${meetingsBase(this.ctx)}/meetings`);
      const { db } = this.ctx;
      const fetchedAt = this.ctx.clock.now();
      const keep = new Set(value.map((m) => m.id));
      const gone = (await db.meetings.toCollection().primaryKeys()).filter((id) => !keep.has(id));
      for (const id of gone) await this.removeMeeting(id);
      await db.meetings.bulkPut(value.map((m) => ({ ...m, fetchedAt })));
    });
  }

  loadMeeting(meetingId: number): Promise<LoadResult> {
    return this.serial(() => this.loadMeetingNow(meetingId));
  }

  private loadMeetingNow(meetingId: number): Promise<LoadResult> {
    return asLoadResult(async () => {
      const base = meetingsBase(this.ctx);
      const { http, db } = this.ctx;
      const [meeting, appendices, messages] = await Promise.all([
        http.get<Meeting>(`${base}/meeting`, { params: { meetingId } }),
        http.get<ValueList<MeetingAppendix>>(`${base}/appendices`, { params: { MeetingId: meetingId } }),
        this.fetchMessages(meetingId),
      ]);
      const fetchedAt = this.ctx.clock.now();
      await db.transaction('rw', [db.meetings, db.appendices, db.meetingMessages], async () => {
        await db.meetings.put({ ...meeting, fetchedAt });
        await db.appendices.where('meetingId').equals(meetingId).delete();
        await db.appendices.bulkPut(appendices.value.map((a) => ({ ...a, fetchedAt })));
        await this.writeMessages(meetingId, messages);
      });
      // The group chat's state comes from the server as well ('Se chatthistorik' once it has
      // ended): a participant who signs in fresh after the meeting holds no row of it yet. A live
      // meeting's chat row is kept by the group chat itself, so it is not fetched on every refetch.
      const chatId = meeting.conversation?.id;
      if (chatId !== undefined && this.conversations) {
        const stored = await db.conversations.get(chatId);
        if (!stored || (isMeetingOver(meeting) && !isFinal(stored)))
          await this.conversations.loadConversation(chatId).catch(() => undefined);
      }
    }).then(async (result) => {
      // No longer the user's meeting: nothing of it stays visible.
      if (isGone(result)) await this.removeMeeting(meetingId);
      return result;
    });
  }

  async sendPrivateMessage(meetingId: number, text: string): Promise<Result<'sent' | 'queued', 'failed'>> {
    const fields = { Subject: '', Text: text, MessageType: String(MESSAGE_TYPE.Message) };
    const body = { ...fields, MeetingRuid: String(meetingId) };
    const path = `${meetingsBase(this.ctx)}/meetingmessage`;
    // One key for the direct try and the outbox: if the direct answer was lost, no duplicate.
    const clientId = crypto.randomUUID();
    const queue = async () => {
      const orderKey = `meeting:${meetingId}`;
      await this.ctx.enqueue({ kind: MEETING_MESSAGE_KIND, path, body, orderKey, clientId });
      return ok('queued' as const);
    };
    const runtime = await this.ctx.db.runtime.get('current');
    if (runtime && !runtime.online) return queue();
    try {
      await this.ctx.http.postMultipart(path, meetingMessageForm(body), {
        headers: { 'Idempotency-Key': clientId },
      });
    } catch (error) {
      // No answer: the outbox sends it when the network is back (SPEC §9 writes survive offline).
      if (isHttpError(error) && error.status === 0) return queue();
      return failure('failed');
    }
    await this.reloadMessages(meetingId);
    return ok('sent' as const);
  }

  async uploadHomework(
    meetingId: number,
    file: Blob,
    fileName: string,
  ): Promise<Result<UploadRow, UploadError>> {
    const { db, http } = this.ctx;
    let row: UploadRow = {
      id: crypto.randomUUID(),
      meetingId,
      fileName,
      loaded: 0,
      total: file.size,
      status: 'uploading',
    };
    await db.uploads.put(row);
    const form = meetingMessageForm(
      {
        Subject: '',
        Text: '',
        MessageType: String(MESSAGE_TYPE.Message),
        MeetingRuid: String(meetingId),
        DocumentName: fileName,
        DocumentContentType: file.type || 'application/octet-stream',
        DocumentContent: file,
      },
      fileName,
    );
    try {
      const send = async () => {
        const { url, headers } = await http.prepare('POST', `${meetingsBase(this.ctx)}/meetingmessage`);
        await this.ctx.upload(url, { ...headers, 'Idempotency-Key': row.id }, form, (loaded, total) => {
          void db.uploads.update(row.id, { loaded, total: total || row.total });
        });
      };
      // Refused for a stale anti-forgery value (only by an older process during a rolling upgrade:
      // this server asks none of a write its bearer token proves): ask again, and send once more.
      await send().catch(async (error: unknown) => {
        const refused = isHttpError(error) && isAntiForgeryAnswer(error.status, error.body);
        if (refused && (await http.renewAntiForgery())) return send();
        throw error;
      });
      row = { ...row, loaded: file.size, total: file.size, status: 'done' };
    } catch (error) {
      const status = isHttpError(error) ? error.status : 0;
      if (isHttpError(error)) http.report(error);
      const reason: UploadError =
        status === 413 ? 'too_large' : status === 415 ? 'unsupported_type' : 'failed';
      row = { ...(await db.uploads.get(row.id))!, status: 'failed', error: reason };
    }
    await db.uploads.put(row);
    if (row.error) return failure(row.error);
    await this.reloadMessages(meetingId);
    return ok(row);
  }

  async deleteMeetingMessage(meetingId: number, meetingMessageId: number): Promise<WriteResult> {
    try {
      await this.ctx.http.delete(`${meetingsBase(this.ctx)}/meetingmessage`, {
        params: { meetingId, meetingMessageId },
      });
    } catch (error) {
      return failure(writeErrorOf(error));
    }
    await this.ctx.db.meetingMessages.delete(meetingMessageId);
    return ok(undefined);
  }

  downloadAppendix(meetingId: number, appendixId: number): Promise<Result<Blob, 'failed'>> {
    const params = { MeetingId: meetingId, AppendixId: appendixId };
    return this.download('/meetingappendix', params);
  }

  downloadMeetingMessageFile(
    meetingId: number,
    meetingMessageId: number,
    fileName: string,
  ): Promise<Result<Blob, 'failed'>> {
    const params = { meetingId, meetingMessageId, fileName };
    return this.download('/meetingmessagefile', params);
  }

  /** A file for the UI to save. */
  private download(path: string, params: Record<string, string | number>): Promise<Result<Blob, 'failed'>> {
    return this.ctx.http.getBlob(path, { params }).then(ok, () => failure('failed'));
  }

  async watchMeeting(meetingId: number, watching: boolean): Promise<void> {
    const key = entityKey('Meeting', meetingId);
    if (watching) {
      this.watched.add(meetingId);
      await this.ctx.subscribe(key);
    } else {
      this.watched.remove(meetingId);
      await this.ctx.unsubscribe(key);
    }
  }

  /** Back online: every watched meeting and its messages (a change may have been missed). */
  async catchUp(): Promise<void> {
    await Promise.all(
      this.watched.keys().map(async (meetingId) => {
        await this.refreshMeeting(meetingId);
        await this.reloadMessages(meetingId);
      }),
    );
  }

  reset(): void {
    this.watched.clear();
  }

  /** A sent private message or homework: show it (and the server's counts) without a full reload. */
  async reloadMessages(meetingId: number): Promise<void> {
    try {
      const messages = await this.fetchMessages(meetingId);
      const { db } = this.ctx;
      await db.transaction('rw', db.meetingMessages, () => this.writeMessages(meetingId, messages));
    } catch (error) {
      if (loadErrorOf(error) !== 'offline') throw error;
    }
  }

  private fetchMessages(meetingId: number) {
    const path = `${meetingsBase(this.ctx)}/meetingmessages`;
    return this.ctx.http.get<ValueList<MeetingMessage>>(path, { params: { meetingId } });
  }

  private async writeMessages(meetingId: number, messages: ValueList<MeetingMessage>) {
    const { db } = this.ctx;
    const fetchedAt = this.ctx.clock.now();
    await db.meetingMessages.where('meetingId').equals(meetingId).delete();
    await db.meetingMessages.bulkPut(messages.value.map((m) => ({ ...m, fetchedAt })));
  }

  private refreshMeeting(meetingId: number): Promise<void> {
    return this.serial(() => this.refreshMeetingNow(meetingId));
  }

  private async refreshMeetingNow(meetingId: number): Promise<void> {
    try {
      const meeting = await this.ctx.http.get<Meeting>(`${meetingsBase(this.ctx)}/meeting`, {
        params: { meetingId },
      });
      await this.ctx.db.meetings.put({ ...meeting, fetchedAt: this.ctx.clock.now() });
    } catch (error) {
      const code = loadErrorOf(error);
      if (code === 'forbidden' || code === 'not_found') await this.removeMeeting(meetingId);
    }
  }

  private async removeMeeting(meetingId: number): Promise<void> {
    const { db } = this.ctx;
    await db.transaction('rw', [db.meetings, db.appendices, db.meetingMessages, db.uploads], async () => {
      await db.meetings.delete(meetingId);
      await db.appendices.where('meetingId').equals(meetingId).delete();
      await db.meetingMessages.where('meetingId').equals(meetingId).delete();
      await db.uploads.where('meetingId').equals(meetingId).delete();
    });
  }
}
