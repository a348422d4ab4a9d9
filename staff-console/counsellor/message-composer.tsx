import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { button } from '../ui/styles.ts';
import { composer, composerRow, meta } from './counsellor.styles.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import { TYPING_SIGNAL_MIN_INTERVAL_MS } from '../../contract/timings.ts';

/**
 * Textarea with send. In a chat, Enter sends and Shift+Enter breaks the line (as the child's
 * non-group chat); in mail, Enter is a line break and only the button sends.
 */
export function MessageComposer({
  label,
  disabled,
  enterSends,
  maxLength,
  onSend,
  onTyping,
}: {
  label: string;
  disabled: boolean;
  enterSends: boolean;
  /** The channel's message length (contract/limits.ts MESSAGE_MAX_LENGTH_BY_CHANNEL). */
  maxLength: number;
  onSend(content: string): void;
  onTyping?(): void;
}) {
  const [text, setText] = useState('');
  const lastTyping = useRef(0);
  const id = useId();
  const counterId = useId();

  function submit(e?: FormEvent) {
    e?.preventDefault();
    const content = text.trim();
    if (!content || disabled) return;
    onSend(content);
    setText('');
  }

  function keyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (enterSends && e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <form className={composer} onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={text}
        maxLength={maxLength}
        disabled={disabled}
        aria-describedby={counterId}
        onKeyDown={keyDown}
        onChange={(e) => {
          setText(e.target.value);
          if (onTyping && Date.now() - lastTyping.current > TYPING_SIGNAL_MIN_INTERVAL_MS) {
            lastTyping.current = Date.now();
            onTyping();
          }
        }}
      />
      <div className={composerRow}>
        <span id={counterId} className={meta}>
          {T.counter(text.length, maxLength)}
        </span>
        <button type="submit" className={button} disabled={disabled || !text.trim()}>
          {T.send}
        </button>
      </div>
    </form>
  );
}
