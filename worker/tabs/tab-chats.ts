/**
 * The group chats each tab opened. A closed tab never calls closeGroupChat, so when the tab
 * registry reports it gone, its opens are closed for it (else Ping would run on, and the chat
 * would never Disconnect). Keys live in the TabRegistry as `chat:{tabId}:{conversationId}`.
 */
export class TabChats {
  private readonly opens = new Map<string, number>();

  constructor(private readonly close: (conversationId: number) => Promise<void>) {}

  static isChatKey(key: string): boolean {
    return key.startsWith('chat:');
  }

  /** Counts an open; answers the registry key to record for the tab. */
  opened(tabId: string, conversationId: number): string {
    const key = `chat:${tabId}:${conversationId}`;
    this.opens.set(key, (this.opens.get(key) ?? 0) + 1);
    return key;
  }

  /** Counts a close; answers the opens the tab still has, or null when it had none to close. */
  closed(tabId: string, conversationId: number): number | null {
    const key = `chat:${tabId}:${conversationId}`;
    const count = this.opens.get(key) ?? 0;
    if (count === 0) return null;
    if (count === 1) this.opens.delete(key);
    else this.opens.set(key, count - 1);
    return count - 1;
  }

  /** The registry found the tab gone: close each open it left behind. */
  async tabGone(key: string): Promise<void> {
    const count = this.opens.get(key) ?? 0;
    this.opens.delete(key);
    const conversationId = Number(key.split(':')[2]);
    for (let i = 0; i < count; i++) await this.close(conversationId);
  }
}
