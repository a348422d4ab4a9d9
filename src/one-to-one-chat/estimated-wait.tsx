import { Link } from 'wouter';
import type { EstimatedWait } from '../../contract/conversations.ts';
import { mailPaths } from '../../contract/mail-paths.ts';
import { useConfig } from '../config/runtime-config.tsx';
import * as s from '../chat-window/chat-window.styles.ts';
import { chatWindowMinimized } from './chat-store.ts';
import { CHILD_CHAT_TEXTS as T } from './texts.ts';

/** From this many minutes on, the window offers mail instead (docs/decisions.md "An honest estimated wait"). */
export const WRITE_INSTEAD_FROM_MINUTES = 15;

/** Whether an estimate is long enough to offer writing a mail while waiting. */
export const offersWriteInstead = (wait: EstimatedWait | undefined): boolean =>
  !!wait && ('moreThan' in wait || wait.minutes >= WRITE_INSTEAD_FROM_MINUTES);

/**
 * The queued chat's estimated wait under its queue place, and on a long one a way to write a mail
 * instead. The link keeps the chat: it only minimises the window, so the child keeps their place
 * (and must still come back every 5 minutes to keep it, SPEC §9).
 */
export function EstimatedWaitNote({ wait }: { wait: EstimatedWait | undefined }) {
  const config = useConfig();
  if (!wait) return null;
  return (
    <>
      <span className={s.statusLine}>
        {'moreThan' in wait ? T.estimatedWaitLong : T.estimatedWait(wait.minutes)}
      </span>
      {offersWriteInstead(wait) && (
        <Link href={mailPaths(config.features).newMail} onClick={() => (chatWindowMinimized.value = true)}>
          {T.writeInstead}
        </Link>
      )}
    </>
  );
}
