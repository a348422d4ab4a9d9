import { useEffect, useId, useRef } from 'react';
import { button, secondaryButton } from '../styles.ts';
import { dialog } from './group-leader.styles.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';

/**
 * SPEC §2 confirmation dialog ('Bekräfta', 'Ja' / 'Nej') as a native modal dialog, which traps
 * focus, closes on Escape and returns focus to the button that opened it.
 */
export function ConfirmDialog({
  open,
  text,
  onAnswer,
}: {
  open: boolean;
  text: string;
  onAnswer(yes: boolean): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onAnswer(false);
      }}
    >
      <h2 id={titleId}>{T.confirm.title}</h2>
      <p>{text}</p>
      <div style={{ display: 'flex', gap: '0.5rem', justifyContent: 'flex-end' }}>
        <button type="button" className={`${button} ${secondaryButton}`} onClick={() => onAnswer(false)}>
          {T.confirm.no}
        </button>
        <button type="button" className={button} onClick={() => onAnswer(true)}>
          {T.confirm.yes}
        </button>
      </div>
    </dialog>
  );
}
