import { useEffect, useId, useRef } from 'react';
import { button, dangerButton, secondaryButton } from '../styles.ts';
import { dialog, dialogButtons } from './counsellor.styles.ts';

/**
 * A modal confirmation on the native <dialog>: the browser traps focus, Escape cancels, and focus
 * returns to the button that opened it.
 */
export function ConfirmDialog({
  title,
  text,
  confirm,
  cancel,
  onConfirm,
  onCancel,
}: {
  title: string;
  text: string;
  confirm: string;
  cancel: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <p id={textId}>{text}</p>
      <div className={dialogButtons}>
        <button type="button" className={`${button} ${secondaryButton}`} onClick={onCancel} autoFocus>
          {cancel}
        </button>
        <button type="button" className={`${button} ${dangerButton}`} onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </dialog>
  );
}
