import { useEffect, useId, type ReactNode } from 'react';
import { useModalDialog } from '../../client-kit/dialogs/use-modal-dialog.ts';
import { DIALOG_TEXTS } from './texts.ts';
import { QuickExitButton } from '../quick-exit/quick-exit-button.tsx';
import { CloseIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import * as s from './modal.styles.ts';

export type ModalColour = 'chat' | 'mail' | 'peers';

export interface ModalProps {
  open: boolean;
  /** Escape, the close button or a backdrop click (the latter two unless `staticBackdrop`). */
  onClose: () => void;
  title?: string;
  /** Accessible name when there is no visible title. */
  label?: string;
  titleSize?: 'small' | 'large';
  colour?: ModalColour;
  extraWide?: boolean;
  /** A static modal ignores backdrop clicks and Escape. */
  staticBackdrop?: boolean;
  /** Menu style: the modal slides in from the side of the screen. */
  menu?: boolean;
  /** Hide the close button (the content has its own way out). */
  hideClose?: boolean;
  /** A form's modal: the focus starts in its first field instead of on the close button. */
  focusFirstField?: boolean;
  children: ReactNode;
}

/**
 * The modal wrapper of SPEC §2 on the native <dialog>: showModal() makes the rest of the page inert
 * and traps focus; focus goes back to the element that opened it.
 */
/** A form's first field to type in (a choice such as the shared-device checkbox may come before it). */
export const FIRST_FIELD = 'input:not([type="checkbox"]):not([type="radio"]), select, textarea';

export function Modal(props: ModalProps) {
  const { open, onClose, title, staticBackdrop = false } = props;
  const ref = useModalDialog(open);
  const titleId = useId();
  const focusFirstField = open && props.focusFirstField;
  // After useModalDialog's showModal(), which focused the first control (the close button).
  useEffect(() => {
    if (focusFirstField) ref.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
  }, [focusFirstField, ref]);

  if (!open) return null;

  const classes = [
    s.dialog,
    props.extraWide ? s.extraWide : '',
    props.menu ? s.menu : '',
    props.colour ? s.colours[props.colour] : '',
  ].join(' ');

  return (
    <dialog
      ref={ref}
      className={classes}
      aria-labelledby={title ? titleId : undefined}
      aria-label={title ? undefined : props.label}
      onCancel={(e) => {
        e.preventDefault();
        if (!staticBackdrop) onClose();
      }}
      onClick={(e) => {
        // A click on the <dialog> itself (not its content) is a click on the backdrop.
        if (e.target === e.currentTarget && !staticBackdrop) onClose();
      }}
    >
      <div className={s.content}>
        {(title || !props.hideClose) && (
          <div className={s.header}>
            {title && (
              <h2 id={titleId} className={props.titleSize === 'small' ? s.titleSmall : s.titleLarge}>
                {title}
              </h2>
            )}
            {!props.hideClose && (
              <button
                type="button"
                className={`${iconButton} ${s.close}`}
                aria-label={DIALOG_TEXTS.close}
                onClick={onClose}
              >
                <CloseIcon />
              </button>
            )}
          </div>
        )}
        {props.children}
      </div>
      <QuickExitButton placement="dialog" />
    </dialog>
  );
}
