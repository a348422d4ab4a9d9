import { useEffect, useRef } from 'react';
import { Modal } from './modal.tsx';
import { DIALOG_TEXTS } from './texts.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { actions } from './modal.styles.ts';

/** SPEC §9: the callback waits for the closing dialog before it acts. */
export const CONFIRMATION_CALLBACK_DELAY_MS = 500;

export interface ConfirmationDialogProps {
  open: boolean;
  /** Closes the dialog at once; `onResult` follows 500 ms later. */
  onClose: () => void;
  /** true for the yes button; false for no, Escape or a backdrop click. */
  onResult: (confirmed: boolean) => void;
  title?: string;
  text?: string;
  yes?: string;
  no?: string;
  staticBackdrop?: boolean;
}

export function ConfirmationDialog({
  open,
  onClose,
  onResult,
  title = DIALOG_TEXTS.confirmTitle,
  text = DIALOG_TEXTS.confirmText,
  yes = DIALOG_TEXTS.yes,
  no = DIALOG_TEXTS.no,
  staticBackdrop = false,
}: ConfirmationDialogProps) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const choose = (confirmed: boolean) => {
    onClose();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onResult(confirmed), CONFIRMATION_CALLBACK_DELAY_MS);
  };

  return (
    <Modal
      open={open}
      onClose={() => choose(false)}
      title={title}
      titleSize="small"
      staticBackdrop={staticBackdrop}
      hideClose
    >
      <p>{text}</p>
      <div className={actions}>
        <button type="button" className={secondaryButton} onClick={() => choose(false)}>
          {no}
        </button>
        <button type="button" className={primaryButton} onClick={() => choose(true)}>
          {yes}
        </button>
      </div>
    </Modal>
  );
}
