import { useState } from 'react';
import { useApi, useOpenConversation } from '../data/index.ts';
import { useOneToOneEntries } from './use-one-to-one-entries.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { showToast } from '../dialogs/toast-store.ts';
import { useConversation } from '../data/meeting-and-chat-hooks.ts';
import { isFavorite } from '../conversation-ui/conversation-lists.ts';
import { iconButton } from '../styles/controls.ts';
import { HistoricChatView } from './historic-chat-view.tsx';
import { StarIcon, TrashIcon } from '../ui-kit/icons.tsx';
import { favouriteOn } from './historic-chat-window.styles.ts';
import { HISTORIC_CHAT_TEXTS as T } from './texts.ts';

/**
 * SPEC §2 Historic chat window of a finished one-to-one chat: read-only, with the favourite star
 * (rating 5 / 1, toggles) and delete (trash) after a confirmation.
 */
export function ConversationHistoryWindow({
  conversationId,
  onClose,
}: {
  conversationId: number;
  onClose: () => void;
}) {
  const api = useApi();
  const conversation = useConversation(conversationId);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useOpenConversation(conversationId);
  const { entries, older } = useOneToOneEntries(conversationId, T.counsellor);

  if (!conversation) return null;
  const favourite = isFavorite(conversation);

  const toggleFavourite = async () => {
    setBusy(true);
    const saved = await api
      .setFavourite(conversationId, !favourite)
      .then((result) => result.ok)
      .catch(() => false);
    setBusy(false);
    if (!saved) showToast(T.favouriteFailed, { kind: 'error' });
  };

  const remove = async (confirmed: boolean) => {
    if (!confirmed) return;
    setBusy(true);
    const deleted = await api
      .deleteConversation(conversationId)
      .then((result) => result.ok)
      .catch(() => false);
    setBusy(false);
    if (deleted) {
      showToast(T.deleted, { kind: 'success' });
      onClose();
    } else showToast(T.deleteFailed, { kind: 'error' });
  };

  const actions = (
    <>
      <button
        type="button"
        className={`${iconButton} ${favourite ? favouriteOn : ''}`}
        aria-pressed={favourite}
        aria-label={T.favourite}
        disabled={busy}
        onClick={() => void toggleFavourite()}
      >
        <StarIcon filled={favourite} />
      </button>
      <button
        type="button"
        className={iconButton}
        aria-label={T.delete}
        disabled={busy}
        onClick={() => setConfirming(true)}
      >
        <TrashIcon />
      </button>
    </>
  );

  // The confirmation is a sibling dialog, so its Escape or backdrop click never reaches the window.
  return (
    <>
      <HistoricChatView
        title={T.title}
        entries={entries}
        older={older}
        date={conversation.loggedDate}
        onClose={onClose}
        actions={actions}
      />
      <ConfirmationDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onResult={(confirmed) => void remove(confirmed)}
        title={T.deleteTitle}
        text={T.deleteConfirm}
        yes={T.deleteYes}
        no={T.deleteNo}
      />
    </>
  );
}
