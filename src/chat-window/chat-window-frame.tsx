import { useEffect, useRef, type ReactNode } from 'react';
import { MinimizeIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import * as s from './chat-window.styles.ts';
import { ConnectionNotice } from './connection-notice.tsx';
import { MinimizedBar } from './minimized-bar.tsx';
import { QuickExitButton } from '../quick-exit/quick-exit-button.tsx';
import { useVisualViewport } from './use-visual-viewport.ts';

export interface ChatWindowFrameProps {
  minimized: boolean;
  /** true minimises (the minimise button, Escape); false restores (the minimised bar). */
  onMinimize(minimized: boolean): void;
  /** A pointer is down on the minimised bar: it is about to be restored. */
  onRestoreSoon?: () => void;
  /** What the minimised bar says (SPEC §2). */
  barLabel: string;
  titleId: string;
  title: string;
  /** The status line under the title, read out when it changes. */
  status: ReactNode;
  /** Under the status, not read out on every change (the one-to-one chat's time left). */
  note?: ReactNode;
  minimizeLabel: string;
  /** The header's buttons after minimise (leave, end, close). */
  actions: ReactNode;
  /**
   * What scrolls between the header and the input: the message list, the typing line and, in the
   * queue, the blocks around them. On a low screen (the keyboard open) only this part shrinks.
   */
  body: ReactNode;
  /** The input, always in view under the body, and the window's own dialogs. */
  children: ReactNode;
}

/**
 * The frame both chat windows share (the child's one-to-one chat and the group chat, SPEC §2): the
 * full-screen modal <dialog> with its header and the connection notice, or the minimised bar. Escape
 * minimises instead of closing.
 */
export function ChatWindowFrame(props: ChatWindowFrameProps) {
  const { minimized, onMinimize } = props;
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el || minimized) return;
    if (!el.open) el.showModal();
    return () => el.close();
  }, [minimized]);
  useVisualViewport(dialog, !minimized);

  if (minimized)
    return (
      <MinimizedBar
        label={props.barLabel}
        onRestore={() => onMinimize(false)}
        {...(props.onRestoreSoon ? { onRestoreSoon: props.onRestoreSoon } : {})}
      />
    );
  return (
    <dialog
      ref={dialog}
      className={s.fullScreen}
      aria-labelledby={props.titleId}
      onCancel={(e) => {
        e.preventDefault();
        onMinimize(true);
      }}
    >
      <div className={s.header}>
        <div className={s.headerInfo}>
          <h2 id={props.titleId}>{props.title}</h2>
          <p role="status" data-testid="chat-status">
            {props.status}
          </p>
          {props.note}
        </div>
        <button
          type="button"
          className={iconButton}
          aria-label={props.minimizeLabel}
          title={props.minimizeLabel}
          onClick={() => onMinimize(true)}
        >
          <MinimizeIcon />
        </button>
        {props.actions}
      </div>
      <ConnectionNotice />
      <div className={s.body}>{props.body}</div>
      {props.children}
      <QuickExitButton placement="window" />
    </dialog>
  );
}
