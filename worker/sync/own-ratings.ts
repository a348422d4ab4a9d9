import type { Conversation } from '../../contract/conversations.ts';

/**
 * The child's own ratings (the favourite star), by conversation. Any answer about a conversation
 * that left the server before the child's rating was saved there carries the old one, and must not
 * turn the star back: every read of conversations takes `mark()` when it is sent and passes its
 * answer through `keep` before storing it.
 */
export class OwnRatings {
  /** `settled` is the write count when the save answered (null while it is under way). */
  private readonly ratings = new Map<number, { rating: number; settled: number | null }>();
  private writes = 0;

  /** Taken when a read is sent. */
  mark(): number {
    return this.writes;
  }

  /** The child's rating of one conversation, under way: `settle` once the save has answered. */
  begin(conversationId: number, rating: number) {
    const own = { rating, settled: null as number | null };
    this.ratings.set(conversationId, own);
    return {
      /** The save failed: the rating from before stands. */
      revert: (previous: number) => {
        own.rating = previous;
      },
      settle: () => {
        own.settled = ++this.writes;
      },
    };
  }

  /** The child's own rating over a fetched one that may have left the server before it was saved. */
  keep<T extends Pick<Conversation, 'id' | 'rating'>>(conversation: T, asked: number): T {
    const own = this.ratings.get(conversation.id);
    if (own && (own.settled === null || own.settled > asked)) conversation.rating = own.rating;
    return conversation;
  }

  /** Sign-out: the next user's stars are their own. */
  clear(): void {
    this.ratings.clear();
  }
}
