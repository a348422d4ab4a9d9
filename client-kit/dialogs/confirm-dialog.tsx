import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog.ts';

/** Each app draws the dialog with its own classes; the behaviour is this component's. */
export interface ConfirmDialogClasses {
  dialog?: string;
  content?: string;
  title?: string;
  text?: string;
  actions?: string;
  yes?: string;
  no?: string;
}

export interface ConfirmDialogProps {
  /** Drawn last inside the dialog, after its buttons (the child app's quick exit). */
  after?: ReactNode;
  open: boolean;
  title: string;
  text: string;
  yes: string;
  no: string;
  /** The answer: true for the yes button; false for no, Escape or a backdrop click that dismisses. */
  onAnswer(yes: boolean): void;
  /** Called at once on any answer, before `onAnswer` when that waits (`answerDelayMs`). */
  onClose?(): void;
  /** How long after the choice `onAnswer` comes (SPEC §2: 500 ms in the child app); 0: at once. */
  answerDelayMs?: number;
  /** What besides the no button answers no: Escape and a backdrop click, only Escape, or nothing. */
  dismiss?: 'escape-and-backdrop' | 'escape' | 'nothing';
  classes?: ConfirmDialogClasses;
}

/**
 * A yes/no question in a modal on the native <dialog>: showModal() makes the rest of the page
 * inert, traps focus and starts it on the first button (no); the title names the dialog and the
 * text describes it; focus goes back to the element that opened it.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  yes,
  no,
  onAnswer,
  onClose,
  answerDelayMs = 0,
  dismiss = 'escape-and-backdrop',
  classes = {},
  after,
}: ConfirmDialogProps) {
  const ref = useModalDialog(open);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const titleId = useId();
  const textId = useId();
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!open) return null;

  const answer = (confirmed: boolean) => {
    onClose?.();
    clearTimeout(timer.current);
    if (answerDelayMs <= 0) onAnswer(confirmed);
    else timer.current = setTimeout(() => onAnswer(confirmed), answerDelayMs);
  };

  return (
    <dialog
      ref={ref}
      className={classes.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        // Escape: the dialog closes through our state, never by itself.
        e.preventDefault();
        if (dismiss !== 'nothing') answer(false);
      }}
      onClick={(e) => {
        // A click on the <dialog> itself (not its content) is a click on the backdrop.
        if (e.target === e.currentTarget && dismiss === 'escape-and-backdrop') answer(false);
      }}
    >
      <div className={classes.content}>
        <h2 id={titleId} className={classes.title}>
          {title}
        </h2>
        <p id={textId} className={classes.text}>
          {text}
        </p>
        <div className={classes.actions}>
          <button type="button" className={classes.no} onClick={() => answer(false)}>
            {no}
          </button>
          <button type="button" className={classes.yes} onClick={() => answer(true)}>
            {yes}
          </button>
        </div>
      </div>
      {after}
    </dialog>
  );
}
