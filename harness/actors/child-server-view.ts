import type { APIRequestContext } from '@playwright/test';

const CONV = '/portal/features/conversations/conversationsapplication-id';

export interface ServerConversation {
  id: number;
  subject: string;
  state: string;
  systemType: string;
  rating: number | null;
}

/** What the server holds for one child, asked with the child's own token (checks behind the UI). */
export class ChildServerView {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  private headers() {
    return { Authorization: `Bearer ${this.token}`, 'X-App-Variant': 'Barn' };
  }

  /** The child's contact as the server keeps it: name and properties (birth year, gender). */
  async profile(): Promise<{ name: string; properties: Record<string, string> }> {
    const res = await this.request.get('/portal/features/contacts/contactsapplicationfeature-id/detail', {
      headers: this.headers(),
    });
    if (!res.ok()) throw new Error(`GET contact detail answered ${res.status()}`);
    return ((await res.json()) as { info: { contact: { name: string; properties: Record<string, string> } } })
      .info.contact;
  }

  /** POST {api}/chat: the child starts a chat (as the chat window would). */
  async startChat(text: string): Promise<ServerConversation> {
    const res = await this.request.post('/portal/chat', {
      headers: this.headers(),
      data: { subject: 'Chatt', text, properties: {} },
    });
    if (!res.ok()) throw new Error(`POST /portal/chat answered ${res.status()}`);
    return (await res.json()) as ServerConversation;
  }

  /** POST {api}/mail: a mail written straight to the server (a test's starting point). */
  async sendMail(subject: string, text: string): Promise<ServerConversation> {
    const res = await this.request.post('/portal/mail', {
      headers: this.headers(),
      data: { subject, text, properties: {} },
    });
    if (!res.ok()) throw new Error(`POST /portal/mail answered ${res.status()}`);
    return (await res.json()) as ServerConversation;
  }

  async conversations(): Promise<ServerConversation[]> {
    const res = await this.request.get(`${CONV}/conversations?take=9999&skip=0&selection=mine`, {
      headers: this.headers(),
    });
    if (!res.ok()) throw new Error(`GET conversations answered ${res.status()}`);
    return ((await res.json()) as { value: ServerConversation[] }).value;
  }

  async conversation(id: number): Promise<ServerConversation | undefined> {
    return (await this.conversations()).find((c) => c.id === id);
  }

  /** The messages as the child may read them: null when the server refuses (not the child's any more). */
  async messages(id: number): Promise<{ message: string }[] | null> {
    const res = await this.request.get(`${CONV}/messages?take=9999&conversation=${id}&selection=mine`, {
      headers: this.headers(),
    });
    if (res.status() === 403 || res.status() === 404) return null;
    if (!res.ok()) throw new Error(`GET messages answered ${res.status()}`);
    return ((await res.json()) as { value: { message: string }[] }).value;
  }
}
