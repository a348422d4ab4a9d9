import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useApi } from '../data/index.ts';
import { useNotificationCount } from '../data/live-queries.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { phaseOf } from '../one-to-one-chat/child-chat-state.ts';
import { hideChatWindow } from '../one-to-one-chat/chat-store.ts';
import { useChildChat } from '../one-to-one-chat/use-child-chat.ts';
import { BellIcon, GearIcon, LogoutIcon, PersonIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import { HEADER_TEXTS } from './texts.ts';
import { useLogout } from './use-logout.ts';
import * as s from './page-header.styles.ts';

/**
 * The header's buttons for a signed-in user (SPEC §6): notifications, settings, my pages and
 * logout, with the assistant's toggle (`assistant`) in its place among them. They read the data
 * worker's database, so they come with the data layer (the app chunk), never with the first screen.
 */
export function SignedInActions({ assistant }: { assistant: ReactNode }) {
  const api = useApi();
  const notificationCount = useNotificationCount();
  const [, navigate] = useLocation();
  const logout = useLogout();
  const [confirmLogout, setConfirmLogout] = useState(false);
  const group = isGroupStyle(useConfig());
  const chat = useChildChat();

  // SPEC §4: with an active or queued chat (non-group), logging out asks first; it ends the chat.
  const chatLive = !group && !!chat?.conversation && phaseOf(chat.conversation) !== 'ended';
  const onLogout = () => {
    if (chatLive) setConfirmLogout(true);
    else void logout();
  };

  const openMyPages = () => {
    api.clearMyPagesCache().catch((error: unknown) => console.error('clearMyPagesCache', error));
    navigate('/mina-sidor');
  };

  return (
    <>
      <button
        type="button"
        className={iconButton}
        aria-label={HEADER_TEXTS.notifications}
        aria-describedby={notificationCount > 0 ? 'header-notifications-new' : undefined}
        onClick={() => navigate('/mina-sidor#notiser')}
      >
        <BellIcon />
        {notificationCount > 0 && <span className={s.dot} aria-hidden="true" />}
        {notificationCount > 0 && (
          <span id="header-notifications-new" className="visually-hidden">
            {HEADER_TEXTS.notificationsNew}
          </span>
        )}
      </button>
      <button
        type="button"
        className={iconButton}
        aria-label={HEADER_TEXTS.settings}
        onClick={() => navigate('/installningar')}
      >
        <GearIcon />
      </button>
      {assistant}
      <button type="button" className={iconButton} aria-label={HEADER_TEXTS.myPages} onClick={openMyPages}>
        <PersonIcon />
      </button>
      <button type="button" className={s.textButton} onClick={onLogout}>
        <LogoutIcon />
        <span>{HEADER_TEXTS.logout}</span>
      </button>
      <ConfirmationDialog
        open={confirmLogout}
        text={HEADER_TEXTS.logoutChatConfirm}
        yes={HEADER_TEXTS.logoutChatYes}
        no={HEADER_TEXTS.logoutChatNo}
        onClose={() => setConfirmLogout(false)}
        onResult={(yes) => {
          if (!yes) return;
          hideChatWindow();
          void logout();
        }}
      />
    </>
  );
}
