import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useLocation } from 'wouter';
import { assistantState, toggleAssistant } from '../assistant/assistant-state.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useApi, useNotificationCount, useSession } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { phaseOf } from '../one-to-one-chat/child-chat-state.ts';
import { hideChatWindow } from '../one-to-one-chat/chat-store.ts';
import { useChildChat } from '../one-to-one-chat/use-child-chat.ts';
import { LoginModal } from '../login/login-modal.tsx';
import { AssistantIcon, BellIcon, GearIcon, LoginIcon, LogoutIcon, PersonIcon } from '../shell/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import { HEADER_TEXTS } from './texts.ts';
import { useLogout } from './use-logout.ts';
import * as s from './page-header.styles.ts';

/** The header's buttons: signed-in users get notifications, settings and my pages (SPEC §6). */
export function HeaderActions() {
  useSignals();
  const api = useApi();
  const { status } = useSession();
  const notificationCount = useNotificationCount();
  const [, navigate] = useLocation();
  const logout = useLogout();
  const [loginOpen, setLoginOpen] = useState(false);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const config = useConfig();
  const group = isGroupStyle(config);
  const chat = useChildChat();
  const signedIn = status === 'authenticated';
  const assistant = assistantState.value;

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
    <div className={s.actions}>
      {signedIn && (
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
      )}
      {signedIn && (
        <button
          type="button"
          className={iconButton}
          aria-label={HEADER_TEXTS.settings}
          onClick={() => navigate('/installningar')}
        >
          <GearIcon />
        </button>
      )}
      {/* The state cookie is per host, not per app: only a variant with the assistant shows it. */}
      {config.features.assistant && assistant !== 'Inactive' && (
        <button
          type="button"
          className={iconButton}
          aria-label={assistant === 'Active' ? HEADER_TEXTS.assistantMinimize : HEADER_TEXTS.assistantOpen}
          aria-pressed={assistant === 'Active'}
          onClick={toggleAssistant}
        >
          <AssistantIcon />
        </button>
      )}
      {signedIn && (
        <button type="button" className={iconButton} aria-label={HEADER_TEXTS.myPages} onClick={openMyPages}>
          <PersonIcon />
        </button>
      )}
      {signedIn && (
        <button type="button" className={s.textButton} onClick={onLogout}>
          <LogoutIcon />
          <span>{HEADER_TEXTS.logout}</span>
        </button>
      )}
      {/* Until the worker has answered whether a session exists, neither: no signed-out flash. */}
      {status === 'anonymous' && (
        <button type="button" className={s.textButton} onClick={() => setLoginOpen(true)}>
          <LoginIcon />
          <span>{HEADER_TEXTS.login}</span>
        </button>
      )}
      <LoginModal open={loginOpen} onClose={() => setLoginOpen(false)} />
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
    </div>
  );
}
