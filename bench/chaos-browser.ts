// A child in a real browser for `npm run chaos`: Debian Chromium running the built app (its
// SharedWorker, Dexie, outbox and hub), behind a fault proxy of its own, writing in a mail thread
// through the thread page's reply form as a person does.
import { IV_BYTES, KEY_ID_CHARS } from '../worker/base/at-rest.ts';
import { KEY_FILE_NAME } from '../worker/base/at-rest-key.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';
import { CHILD_PASSWORD, type ChaosClient, type Sent } from './chaos-client.ts';
import { login } from '../harness/test-server.ts';

export class ChaosBrowserChild implements ChaosClient {
  readonly sent: Sent[] = [];
  conversations: number[] = [];
  readonly groupChats = new Set<number>();
  private page: Page | null = null;
  private seq = 0;
  /** A reply typed and sent is on its way; the next waits, as a person waits for the form to clear. */
  private typing: Promise<void> = Promise.resolve();

  private constructor(
    readonly name: string,
    readonly proxy: FaultProxy,
    private readonly context: BrowserContext,
  ) {}

  static async create(browser: Browser, name: string, siteUrl: string): Promise<ChaosBrowserChild> {
    const proxy = await startFaultProxy({ target: siteUrl });
    const context = await browser.newContext({ baseURL: proxy.origin });
    return new ChaosBrowserChild(name, proxy, context);
  }

  get running(): boolean {
    return this.page !== null;
  }

  /** Signs in through the start page's login form, and writes the first message of a mail thread. */
  async signInAndStartMail(siteUrl: string): Promise<number> {
    const page = await this.context.newPage();
    this.page = page;
    await logInChild(page, { username: this.name, password: CHILD_PASSWORD });
    // The thread itself is started through the API (its form is the mail page's, tested elsewhere).
    const { access_token } = await login(siteUrl, this.name, CHILD_PASSWORD);
    const first = this.nextText(0);
    const mail = await fetch(`${siteUrl}/portal/mail`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${access_token}`,
        'Content-Type': 'application/json',
        'X-App-Variant': 'Barn',
      },
      body: JSON.stringify({ subject: 'Chaos', text: first.text, properties: {} }),
    });
    const { id } = (await mail.json()) as { id: number };
    this.sent.push({ ...first, conversationId: id });
    this.conversations.push(id);
    await this.openThread();
    return id;
  }

  private async openThread(): Promise<void> {
    await this.page!.goto(`/mina-sidor/inlagg/${this.conversations[0]}`);
    await new ThreadPage(this.page!).reply.waitFor();
  }

  private nextText(conversationId: number): Sent {
    const seq = ++this.seq;
    return { conversationId, seq, sender: this.name, text: `${this.name} #${seq} hej` };
  }

  /** Types a reply into its thread and sends it; false when the browser is closed. */
  async write(_conversationId?: number): Promise<boolean> {
    const page = this.page;
    if (!page) return false;
    const message = this.nextText(this.conversations[0]!);
    const done = this.typing.then(async () => {
      const thread = new ThreadPage(page);
      await thread.answer(message.text);
      // Sent or queued: the reply is in the list (the outbox holds it while the network is away).
      await thread.message(message.text).first().waitFor({ timeout: 15_000 });
    });
    this.typing = done.catch(() => undefined);
    try {
      await done;
    } catch {
      // The page closed under the form (a fault): the text may or may not have reached the outbox.
      if (page.isClosed()) return false;
      throw new Error(`${this.name}: the reply "${message.text}" never showed`);
    }
    this.sent.push(message);
    return true;
  }

  offline(): void {
    this.proxy.offline();
    this.proxy.cutSockets();
    void this.context.setOffline(true);
  }

  async online(): Promise<void> {
    this.proxy.online();
    await this.context.setOffline(false);
  }

  /** Closes its only tab: the SharedWorker ends with it; the browser's storage stays. */
  async kill(): Promise<void> {
    const page = this.page;
    this.page = null;
    await this.typing;
    await page?.close();
  }

  async open(): Promise<void> {
    if (this.page) return;
    this.page = await this.context.newPage();
    await this.openThread();
  }

  /**
   * The browser's own copy of a conversation, read from its IndexedDB ('portal-data', the worker's
   * Dexie database): each message's server id (null while unsent) and text. The rows are sealed at
   * rest (worker/base/at-rest.ts): they are opened here as the app opens them, with the key of
   * its key file in the origin private file system (worker/base/at-rest-key.ts).
   */
  async localCopy(conversationId: number): Promise<Array<{ id: number | null; message: string }>> {
    return this.page!.evaluate(
      async ({ id, keyIdChars, ivBytes, keyFileName }) => {
        // tsx names the helpers below with esbuild's __name, which the page does not have.
        (globalThis as { __name?: unknown }).__name ??= (f: unknown) => f;
        const request = <T>(req: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(new Error('IndexedDB request failed'));
          });
        const openDb = (name: string) => request(indexedDB.open(name));
        const data = await openDb('portal-data');
        const rows = (await request(
          data.transaction('chatMessages').objectStore('chatMessages').index('conversation').getAll(id),
        )) as Array<Record<string, unknown>>;
        data.close();
        const keyFile = await (
          await navigator.storage.getDirectory()
        )
          .getFileHandle(keyFileName)
          .then((handle) => handle.getFile())
          .then((file) => file.arrayBuffer())
          .then((buffer) => new Uint8Array(buffer))
          .catch(() => null);
        const record =
          keyFile && keyFile.length > keyIdChars
            ? {
                keyId: String.fromCharCode(...keyFile.subarray(0, keyIdChars)),
                key: await crypto.subtle.importKey('raw', keyFile.slice(keyIdChars), 'AES-GCM', false, [
                  'decrypt',
                ]),
              }
            : undefined;
        const bytes = (text: string, from: number, to = text.length) =>
          Uint8Array.from(text.slice(from, to), (c) => c.charCodeAt(0));
        const opened = await Promise.all(
          rows.map(async (row) => {
            const sealed = row['$sealed'];
            if (typeof sealed !== 'string') return row;
            if (!record || sealed.slice(0, keyIdChars) !== record.keyId) return null;
            const plain = await crypto.subtle.decrypt(
              { name: 'AES-GCM', iv: bytes(sealed, keyIdChars, keyIdChars + ivBytes) },
              record.key,
              bytes(sealed, keyIdChars + ivBytes),
            );
            return JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>;
          }),
        );
        return opened
          .filter((row) => row !== null)
          .map((m) => ({ id: m['id'] as number | null, message: m['message'] as string }));
      },
      { id: conversationId, keyIdChars: KEY_ID_CHARS, ivBytes: IV_BYTES, keyFileName: KEY_FILE_NAME },
    );
  }

  /** Its outbox is the SharedWorker's: what is unsent shows as rows without a server id. */
  async unsent(): Promise<{ waiting: number; refused: string[] }> {
    if (!this.page) return { waiting: 0, refused: [] };
    const local = await this.localCopy(this.conversations[0]!);
    return { waiting: local.filter((m) => m.id === null).length, refused: [] };
  }

  async refresh(_conversationId: number): Promise<void> {
    if (!this.page) return;
    await this.page.reload();
    await new ThreadPage(this.page).reply.waitFor();
  }

  async close(): Promise<void> {
    await this.context.close();
    await this.proxy.close();
  }
}
