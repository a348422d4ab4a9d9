import { useEffect, useMemo, useState } from 'react';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { mutedText } from '../ui/styles.ts';
import { ConversationPanel } from './conversation-panel.tsx';
import { layout, section, workspace } from './counsellor.styles.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import { QueuePanel } from './queue-panel.tsx';
import type { QueueItem } from './types.ts';
import { useMyConversations } from './use-my-conversations.ts';
import { useQueue } from './use-queue.ts';
import { CONVERSATION_STATE } from '../../contract/conversation-state.ts';

/**
 * The counsellor's part: the live queue beside the open conversations. Every chat the counsellor has
 * in progress is open (so a reload brings them back); an ended chat or an opened mail stays until
 * closed.
 */
export function CounsellorConsole() {
  const api = useStaffApi();
  const queue = useQueue();
  const mine = useMyConversations();
  const [kept, setKept] = useState<number[]>([]);
  // The last known summary of each opened item: an opened mail, and a chat just accepted. After
  // 'Ta nästa' the queue's reload can answer (without the chat) before the counsellor's own list
  // has it; without the snapshot the panel would unmount in between and lose what the counsellor
  // had begun to write.
  const [snapshots, setSnapshots] = useState<Map<number, QueueItem>>(new Map());
  const remember = (item: QueueItem) => setSnapshots((map) => new Map(map).set(item.id, item));
  const [accepting, setAccepting] = useState<number | 'next' | null>(null);
  const [acceptError, setAcceptError] = useState<string | null>(null);

  // Every chat in progress opens (also after a reload) and then stays until closed, so a chat the
  // child ends remains readable with 'Chatten är avslutad'.
  const inProgress = useMemo(
    () =>
      (mine.items ?? [])
        .filter((c) => c.systemType === 'chat' && c.state === CONVERSATION_STATE.InProgress)
        .map((c) => c.id)
        .sort((a, b) => a - b),
    [mine.items],
  );
  useEffect(() => {
    setKept((list) => {
      const added = inProgress.filter((id) => !list.includes(id));
      return added.length ? [...list, ...added] : list;
    });
  }, [inProgress]);
  const openIds = kept;

  const summaryOf = (id: number): QueueItem | undefined =>
    mine.items?.find((c) => c.id === id) ?? queue.items?.find((c) => c.id === id) ?? snapshots.get(id);

  async function accept(target: number | 'next') {
    const item = queue.items?.find((i) => (target === 'next' ? i.systemType === 'chat' : i.id === target));
    const id = target === 'next' ? item?.id : target;
    if (id === undefined) return;
    setAccepting(target);
    setAcceptError(null);
    try {
      await api.post(`/conversations/${id}/accept`);
      if (item) remember(item);
      setKept((list) => (list.includes(id) ? list : [...list, id]));
    } catch (e) {
      setAcceptError(e instanceof StaffApiError && e.status === 0 ? e.message : T.acceptFailed);
    } finally {
      setAccepting(null);
      mine.reload();
      queue.reload();
    }
  }

  function openMail(item: QueueItem) {
    remember(item);
    setKept((list) => (list.includes(item.id) ? list : [...list, item.id]));
  }

  function close(id: number) {
    setKept((list) => list.filter((k) => k !== id));
  }

  return (
    <div className={layout}>
      <h1 className="visually-hidden">{T.heading}</h1>
      <QueuePanel
        items={queue.items}
        error={queue.error}
        acceptError={acceptError}
        accepting={accepting}
        onRetry={queue.reload}
        onTakeNext={() => void accept('next')}
        onAccept={(id) => void accept(id)}
        onOpenMail={openMail}
      />
      <section className={section} aria-labelledby="workspace-heading">
        <h2 id="workspace-heading">{T.workspaceHeading}</h2>
        {openIds.length === 0 && <p className={mutedText}>{T.workspaceEmpty}</p>}
        <div className={workspace}>
          {openIds.map((id) => {
            const conversation = summaryOf(id);
            if (!conversation) return null;
            const title =
              conversation.systemType === 'mail'
                ? T.mailTitle(conversation.subject || T.noSubject)
                : T.chatTitle(conversation.id);
            return (
              <ConversationPanel
                key={id}
                conversation={conversation}
                title={title}
                onClose={() => close(id)}
                onChanged={() => {
                  // A resolved chat stays open (ended) until closed.
                  setKept((list) => (list.includes(id) ? list : [...list, id]));
                  mine.reload();
                  queue.reload();
                }}
              />
            );
          })}
        </div>
      </section>
    </div>
  );
}
