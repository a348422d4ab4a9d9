import { ConfirmDialog } from '../../client-kit/dialogs/confirm-dialog.tsx';
import { button, dangerButton, dialog, dialogActions, secondaryButton } from './styles.ts';

/**
 * The console's confirmation: client-kit's dialog in the console's look. Escape answers no; a click
 * beside it does nothing, and the answer comes at once.
 */
export function StaffConfirmDialog({
  open,
  title,
  text,
  yes,
  no,
  danger = false,
  onAnswer,
}: {
  open: boolean;
  title: string;
  text: string;
  yes: string;
  no: string;
  /** The yes button in the danger colour: an action that cannot be undone. */
  danger?: boolean;
  onAnswer(yes: boolean): void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={title}
      text={text}
      yes={yes}
      no={no}
      onAnswer={onAnswer}
      dismiss="escape"
      classes={{
        dialog,
        actions: dialogActions,
        no: `${button} ${secondaryButton}`,
        yes: danger ? `${button} ${dangerButton}` : button,
      }}
    />
  );
}
