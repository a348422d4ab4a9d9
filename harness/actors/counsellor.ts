import type { APIRequestContext } from '@playwright/test';
import { staffToken } from './staff-token.ts';

interface QueueItem {
  id: number;
  systemType: string;
  state: string;
}

/** The demo counsellor, answering children through the staff API (as the staff console would). */
export class Counsellor {
  private token = '';

  constructor(private readonly request: APIRequestContext) {}

  async logIn() {
    this.token = await staffToken(this.request, 'kurator', 'kurator-losenord');
  }

  private headers() {
    return { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Barn' };
  }

  async get<T>(path: string): Promise<T> {
    const res = await this.request.get(`/portal/staff${path}`, { headers: this.headers() });
    if (!res.ok()) throw new Error(`GET ${path} answered ${res.status()}`);
    return (await res.json()) as T;
  }

  async post(path: string, data: unknown = {}) {
    const res = await this.request.post(`/portal/staff${path}`, { headers: this.headers(), data });
    if (!res.ok()) throw new Error(`POST ${path} answered ${res.status()}`);
    return res;
  }

  /** The queued chats and unanswered mail, oldest first. */
  async queue(): Promise<QueueItem[]> {
    return (await this.get<{ value: QueueItem[] }>('/queue')).value;
  }

  /** Earlier specs may have left chats waiting: answers and closes them, so a new chat is first. */
  async emptyQueue() {
    for (const item of await this.queue()) {
      if (item.systemType !== 'chat') continue;
      await this.accept(item.id);
      await this.resolve(item.id);
    }
  }

  /** The id of the one chat waiting in the queue (after `emptyQueue`, the test's own). */
  async waitingChat(): Promise<number> {
    const chats = (await this.queue()).filter((q) => q.systemType === 'chat');
    if (chats.length !== 1) throw new Error(`expected one waiting chat, found ${chats.length}`);
    return chats[0]!.id;
  }

  accept(conversationId: number) {
    return this.post(`/conversations/${conversationId}/accept`);
  }

  write(conversationId: number, content: string) {
    return this.post(`/conversations/${conversationId}/messages`, { content });
  }

  typing(conversationId: number) {
    return this.post(`/conversations/${conversationId}/typing`);
  }

  resolve(conversationId: number) {
    return this.post(`/conversations/${conversationId}/resolve`);
  }

  async messages(
    conversationId: number,
  ): Promise<{ message: string; authorKind: string; loggedDate: string }[]> {
    return (
      await this.get<{ value: { message: string; authorKind: string; loggedDate: string }[] }>(
        `/conversations/${conversationId}/messages`,
      )
    ).value;
  }
}
