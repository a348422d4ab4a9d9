/**
 * Conversations are read by several loads that may overlap (the list after a hub event, the list the
 * page asked for, one conversation, the chat's resume), and their answers can come back in another
 * order than they were asked: an answer read on the server before a change may arrive after one read
 * after it. Each read takes a number when it is sent; a row is written only by an answer at least as
 * new as the one that wrote it last, so a late, older answer never turns a chat back to an earlier
 * state. In memory: a new worker starts with no rows written by it.
 */
export class ReadOrder {
  private asked = 0;
  private readonly written = new Map<number, number>();

  /** Taken when a read is sent. */
  ask(): number {
    return ++this.asked;
  }

  /**
   * The rows of an answer that no newer answer has written, marked as written by it. Call it right
   * before the write, in the same turn, so writes happen in the order they were let through.
   */
  fresher<T extends { id: number }>(rows: readonly T[], asked: number): T[] {
    return rows.filter((row) => {
      if ((this.written.get(row.id) ?? 0) > asked) return false;
      this.written.set(row.id, asked);
      return true;
    });
  }

  /** True when a row was written by an answer newer than `asked`: an older list's silence about it means nothing. */
  newer(id: number, asked: number): boolean {
    return (this.written.get(id) ?? 0) > asked;
  }

  /** Sign-out: the next user's rows start afresh. */
  clear(): void {
    this.written.clear();
  }
}
