import type { ReactNode } from 'react';
import { useEntitySubscription } from '../api/staff-hub.ts';
import { entityKey } from '../../contract/hub.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import { ChildPropertiesList } from './child-properties-list.tsx';
import { queueEntry, queueHead, queueList, section } from './counsellor.styles.ts';
import { formatClockTimeTodayElseDate } from '../../client-kit/time/format-time.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import type { QueueItem } from './types.ts';

interface QueuePanelProps {
  items: QueueItem[] | null;
  error: string | null;
  acceptError: string | null;
  /** The conversation being accepted, or 'next' while 'Ta nästa' works. */
  accepting: number | 'next' | null;
  onRetry(): void;
  onTakeNext(): void;
  onAccept(id: number): void;
  onOpenMail(item: QueueItem): void;
}

/** The queue per channel: chats in arrival order with 'Ta nästa', and unanswered mail. */
export function QueuePanel(props: QueuePanelProps) {
  const { items, error, acceptError, accepting } = props;
  const chats = items?.filter((i) => i.systemType === 'chat') ?? [];
  const mails = items?.filter((i) => i.systemType === 'mail') ?? [];
  return (
    <section className={section} aria-labelledby="queue-heading">
      <h2 id="queue-heading">{T.queueHeading}</h2>
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={`${button} ${secondaryButton}`} onClick={props.onRetry}>
            {T.retry}
          </button>
        </div>
      )}
      {items === null && !error && <Spinner label={T.queueLoading} />}
      {items !== null && (
        <>
          <section aria-labelledby="chat-queue-heading">
            <div className={queueHead}>
              <h3 id="chat-queue-heading">
                {T.chatQueue} <span className={mutedText}>({T.waitingCount(chats.length)})</span>
              </h3>
              <button
                type="button"
                className={button}
                disabled={chats.length === 0 || accepting !== null}
                onClick={props.onTakeNext}
              >
                {accepting === 'next' ? T.taking : T.takeNext}
              </button>
            </div>
            {acceptError && (
              <p className={errorText} role="alert">
                {acceptError}
              </p>
            )}
            {chats.length === 0 ? (
              <p className={mutedText}>{T.chatQueueEmpty}</p>
            ) : (
              <ol className={queueList} aria-label={T.chatQueue}>
                {chats.map((item, index) => (
                  <QueueEntry
                    key={item.id}
                    item={item}
                    title={
                      <>
                        <strong>{T.place(index + 1)}</strong> · {T.chatTitle(item.id)}
                      </>
                    }
                  >
                    <button
                      type="button"
                      className={`${button} ${secondaryButton}`}
                      disabled={accepting !== null}
                      aria-label={T.acceptLabel(index + 1)}
                      onClick={() => props.onAccept(item.id)}
                    >
                      {accepting === item.id ? T.taking : T.accept}
                    </button>
                  </QueueEntry>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="mail-queue-heading">
            <div className={queueHead}>
              <h3 id="mail-queue-heading">
                {T.mailQueue} <span className={mutedText}>({T.waitingCount(mails.length)})</span>
              </h3>
            </div>
            {mails.length === 0 ? (
              <p className={mutedText}>{T.mailQueueEmpty}</p>
            ) : (
              <ol className={queueList} aria-label={T.mailQueue}>
                {mails.map((item) => (
                  <QueueEntry
                    key={item.id}
                    item={item}
                    title={<strong>{item.subject || T.noSubject}</strong>}
                  >
                    <button
                      type="button"
                      className={`${button} ${secondaryButton}`}
                      aria-label={T.openMailLabel(item.subject || T.noSubject)}
                      onClick={() => props.onOpenMail(item)}
                    >
                      {T.openMail}
                    </button>
                  </QueueEntry>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </section>
  );
}

/**
 * One waiting conversation: its title, since when it waits, the child's properties and its action.
 * Subscribed, so a cancellation by the server itself reaches the queue.
 */
function QueueEntry({ item, title, children }: { item: QueueItem; title: ReactNode; children: ReactNode }) {
  useEntitySubscription(entityKey('Conversation', item.id));
  return (
    <li className={queueEntry} data-testid="queue-entry">
      <p>{title}</p>
      <p className={mutedText}>{T.waitingSince(formatClockTimeTodayElseDate(item.loggedDate))}</p>
      <ChildPropertiesList properties={item.properties} />
      <div>{children}</div>
    </li>
  );
}
