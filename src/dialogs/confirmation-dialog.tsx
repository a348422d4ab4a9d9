import { ConfirmDialog } from '../../client-kit/dialogs/confirm-dialog.tsx';
import { DIALOG_TEXTS } from './texts.ts';
import { QuickExitButton } from '../quick-exit/quick-exit-button.tsx';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { actions, confirmTitle, content, dialog } from './modal.styles.ts';
import { CONFIRMATION_CALLBACK_MS } from '../../contract/timings.ts';

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

const classes = { dialog, content, title: confirmTitle, actions, yes: primaryButton, no: secondaryButton };

/** SPEC §2 confirmation: 'Bekräfta' / 'Är du säker?' / 'Ja' / 'Nej' unless told otherwise. */
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
  // A static dialog ignores Escape as well as the backdrop.
  return (
    <ConfirmDialog
      open={open}
      title={title}
      text={text}
      yes={yes}
      no={no}
      onClose={onClose}
      onAnswer={onResult}
      answerDelayMs={CONFIRMATION_CALLBACK_MS}
      dismiss={staticBackdrop ? 'nothing' : 'escape-and-backdrop'}
      classes={classes}
      after={<QuickExitButton placement="dialog" />}
    />
  );
}
