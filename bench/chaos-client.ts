// A child for `npm run chaos`: the real worker core (worker/portal-worker.ts) in Node with
// fake-indexeddb, as tests/worker runs it, behind a fault proxy of its own so its network can go.
import 'fake-indexeddb/auto';
import { HttpTransportType } from '@microsoft/signalr';
import { AuthDb, DexieStateStore } from '../worker/auth/user-store.ts';
import { PortalDb } from '../worker/base/db.ts';
import type { RuntimeConfig } from '../contract/config.ts';
import { systemClock, noLock } from '../worker/clock.ts';
import { loadRuntimeConfig } from '../worker/config.ts';
import { PortalWorker } from '../worker/portal-worker.ts';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';

export const CHILD_PASSWORD = 'blå-ballong-73';
export const DEVICE = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  platform: 'Linux armv8l',
  installed: true,
};

/** What `npm run chaos` does with every client, worker core in Node or real browser alike. */
export interface ChaosClient {
  readonly name: string;
  readonly proxy: FaultProxy;
  readonly sent: Sent[];
  conversations: number[];
  readonly groupChats: Set<number>;
  readonly running: boolean;
  /** Answers it got with `Idempotent-Replayed: true` (undefined where they cannot be seen: a browser). */
  readonly replayed?: number;
  /** 5xx answers it got (each is retried), by status (undefined where they cannot be seen). */
  readonly retried?: Map<number, number>;
  /** Queues a message as the app does; false when the client is closed. */
  write(conversationId: number): Promise<boolean>;
  offline(): void;
  online(): Promise<void>;
  kill(): Promise<void>;
  open(): Promise<void>;
  /** Writes not yet answered, and writes the server refused for good. */
  unsent(): Promise<{ waiting: number; refused: string[] }>;
  /** Its own copy of a conversation: server id (null while unsent) and text of each message. */
  localCopy(conversationId: number): Promise<Array<{ id: number | null; message: string }>>;
  /** Fetches the conversation again, as opening it does. */
  refresh(conversationId: number): Promise<void>;
  close(): Promise<void>;
}

/** One message a client asked to send: its text is unique and names its sender and sequence. */
export interface Sent {
  conversationId: number;
  text: string;
  sender: string;
  seq: number;
}

export class ChaosChild implements ChaosClient {
  worker: PortalWorker | null = null;
  /** Its databases outlive its worker: a killed worker's successor opens the same ones. */
  readonly db: PortalDb;
  readonly authDb: AuthDb;
  readonly sent: Sent[] = [];
  conversations: number[] = [];
  /** Group chats among `conversations` (a meeting's chat: opened as the meeting page opens it). */
  readonly groupChats = new Set<number>();
  replayed = 0;
  readonly retried = new Map<number, number>();
  private seq = 0;
  private config: RuntimeConfig | null = null;

  private constructor(
    readonly name: string,
    readonly proxy: FaultProxy,
  ) {
    this.db = new PortalDb(`chaos-data-${name}`);
    this.authDb = new AuthDb(`chaos-auth-${name}`);
  }

  static async create(name: string, siteUrl: string): Promise<ChaosChild> {
    return new ChaosChild(name, await startFaultProxy({ target: siteUrl }));
  }

  get running(): boolean {
    return this.worker !== null;
  }

  /** Starts a worker core on the child's databases: the first time, or a new one after a kill. */
  async open(): Promise<void> {
    if (this.worker) return;
    this.config ??= await loadRuntimeConfig(this.proxy.origin);
    const worker = new PortalWorker({
      config: this.config,
      origin: this.proxy.origin,
      requestTimeoutMs: 5000,
      db: this.db,
      userStore: new DexieStateStore(this.authDb),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (res.headers.get('idempotent-replayed') === 'true') this.replayed++;
        if (res.status >= 500) this.retried.set(res.status, (this.retried.get(res.status) ?? 0) + 1);
        return res;
      },
      clock: systemClock,
      withLock: noLock,
      broadcast: () => undefined,
      hub: { transport: HttpTransportType.WebSockets },
    });
    this.worker = worker;
    await worker.start(true);
    await worker.onOnline(this.proxy.isOnline);
    for (const id of this.conversations) await this.openIn(worker, id);
  }

  private async openIn(worker: PortalWorker, id: number): Promise<void> {
    if (this.groupChats.has(id)) await worker.commands.openGroupChat(id);
    else await worker.commands.openConversation(id);
  }

  /**
   * Ends the worker as a closed browser or a crashed worker ends it: nothing is flushed or said
   * goodbye to; what is in its outbox stays in its database for the next one.
   */
  async kill(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.retire();
  }

  /** A child with its password; a group participant with its personal code alone (null). */
  async signIn(password: string | null = CHILD_PASSWORD): Promise<void> {
    const result = await this.worker!.login(this.name, password);
    if (!result.ok) throw new Error(`${this.name}: login failed (${result.code})`);
  }

  /** A mail thread of its own; answered by a counsellor, it is a conversation of two writers. */
  async startMail(): Promise<number> {
    const text = this.nextText(0);
    const sent = await this.worker!.commands.sendMail('Chaos', text.text, DEVICE);
    if (!sent.ok || sent.value.status !== 'sent') {
      throw new Error(`${this.name}: mail not sent (${JSON.stringify(sent)})`);
    }
    const id = sent.value.conversationId;
    this.sent.push({ ...text, conversationId: id });
    await this.follow(id);
    return id;
  }

  /** A live chat, in the queue until a counsellor accepts it. */
  async startChat(): Promise<number> {
    const started = await this.worker!.commands.startChat(null, DEVICE);
    if (!started.ok) throw new Error(`${this.name}: chat not started (${JSON.stringify(started)})`);
    await this.follow(started.value);
    return started.value;
  }

  /** A meeting's group chat, open as on the meeting page. */
  async joinGroupChat(id: number): Promise<void> {
    this.groupChats.add(id);
    await this.follow(id);
  }

  private async follow(id: number): Promise<void> {
    this.conversations.push(id);
    await this.openIn(this.worker!, id);
  }

  private nextText(conversationId: number): Sent {
    const seq = ++this.seq;
    return { conversationId, seq, sender: this.name, text: `${this.name} #${seq} hej` };
  }

  /** Queues a message through the outbox (as the chat window does); false when the worker is down. */
  async write(conversationId: number): Promise<boolean> {
    if (!this.worker) return false;
    const message = this.nextText(conversationId);
    const queued = await this.worker.commands.sendChatMessage(conversationId, message.text);
    if (!queued.ok) throw new Error(`${this.name}: not queued (${JSON.stringify(queued)})`);
    this.sent.push(message);
    return true;
  }

  offline(): void {
    this.proxy.offline();
    this.proxy.cutSockets();
    void this.worker?.onOnline(false);
  }

  async online(): Promise<void> {
    this.proxy.online();
    await this.worker?.onOnline(true);
  }

  /** Writes not yet answered by the server (sent rows stay in the outbox with their answer). */
  async unsent(): Promise<{ waiting: number; refused: string[] }> {
    const rows = await this.db.outbox.filter((r) => r.status !== 'sent').toArray();
    return {
      waiting: rows.filter((r) => !(r.status === 'failed' && r.final)).length,
      refused: rows
        .filter((r) => r.status === 'failed' && r.final)
        .map((r) => `${r.kind} ${r.lastStatus ?? ''} ${r.lastMessage ?? r.lastError ?? ''}`),
    };
  }

  async localCopy(conversationId: number): Promise<Array<{ id: number | null; message: string }>> {
    const rows = await this.db.chatMessages.where('conversation').equals(conversationId).toArray();
    return rows.map((r) => ({ id: r.id, message: r.message }));
  }

  async refresh(conversationId: number): Promise<void> {
    await this.worker?.catchUp();
    if (this.worker) await this.openIn(this.worker, conversationId);
  }

  async close(): Promise<void> {
    await this.kill();
    await this.proxy.close();
    this.db.close();
    this.authDb.close();
  }
}
