import type { TypingRow } from '../../worker/client/group-support.ts';
import { typingText } from '../conversation-ui/typing-names.ts';
import { useNow } from '../ui-kit/use-now.ts';
import { typing } from './chat-window.styles.ts';
import { TYPING_CHECK_MS, TYPING_VISIBLE_MS } from '../../contract/timings.ts';

export function TypingIndicator({ rows, myContactId }: { rows: readonly TypingRow[]; myContactId?: number }) {
  const now = useNow(TYPING_CHECK_MS).getTime();
  const names = rows
    .filter((r) => r.contactId !== myContactId && now - r.at < TYPING_VISIBLE_MS)
    .map((r) => r.contactName);
  return (
    <div className={typing} aria-live="polite">
      {typingText(names)}
    </div>
  );
}
