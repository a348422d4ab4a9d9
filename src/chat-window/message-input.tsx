import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { GROUP_CHAT_MAX_LENGTH } from '../../contract/limits.ts';
import { primaryButton } from '../styles/controls.ts';
import * as s from './chat-window.styles.ts';
import { CHAT_TEXTS } from './texts.ts';
import { useDesktop } from './use-desktop.ts';

/** SPEC §9: the textarea grows to at most 168 px. */
export const TEXTAREA_MAX_HEIGHT_PX = 168;

export interface MessageInputProps {
  enabled: boolean;
  placeholder: string;
  onSend: (text: string) => Promise<void>;
  onTyping: () => void;
  /** The 'Skicka med Enter' checkbox (group chat); without it Enter always sends (SPEC §2). */
  sendWithEnterOption?: boolean;
  /** Shown above the textarea (the pre-submit prompt). */
  prompt?: string;
}

export function MessageInput({
  enabled,
  placeholder,
  onSend,
  onTyping,
  sendWithEnterOption = true,
  prompt,
}: MessageInputProps) {
  const desktop = useDesktop();
  const counterId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [sendWithEnter, setSendWithEnter] = useState(true);
  const valid = text.trim().length > 0 && text.length <= GROUP_CHAT_MAX_LENGTH;
  const canSend = enabled && valid && !submitting;

  /**
   * Fits the textarea to its text, or while empty to its placeholder: the queue's placeholder (SPEC
   * §4) takes several lines on a 320 px screen and was cut off after the first.
   */
  const grow = () => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    let height = el.scrollHeight;
    if (el.value === '' && el.placeholder) {
      el.value = el.placeholder;
      height = el.scrollHeight;
      el.value = '';
    }
    // scrollHeight leaves out the borders, which a border-box height includes.
    const borders = el.offsetHeight - el.clientHeight;
    el.style.height = `${Math.min(height + borders, TEXTAREA_MAX_HEIGHT_PX)}px`;
  };

  // Again whenever its width changes: the window opens after the first render (a closed <dialog>
  // has no size), and the screen may turn.
  useLayoutEffect(() => {
    grow();
    const el = area.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      grow();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [placeholder]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSubmitting(true);
    try {
      await onSend(text.trim());
      setText('');
      requestAnimationFrame(grow);
    } finally {
      setSubmitting(false);
      refocus.current = true;
    }
  };

  // Back into the textarea once a send is over. Not in submit itself: the textarea is still disabled
  // there (it lost the focus when it was disabled), and focus() on a disabled element does nothing.
  const refocus = useRef(false);
  useEffect(() => {
    if (submitting || !refocus.current) return;
    refocus.current = false;
    area.current?.focus();
  }, [submitting]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((sendWithEnter || !sendWithEnterOption) && event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className={s.footer} onSubmit={(e) => void submit(e)}>
      {prompt && <p className={s.prompt}>{prompt}</p>}
      <textarea
        ref={area}
        rows={1}
        value={text}
        maxLength={GROUP_CHAT_MAX_LENGTH}
        placeholder={placeholder}
        aria-label={CHAT_TEXTS.messageLabel}
        aria-describedby={desktop ? counterId : undefined}
        disabled={!enabled || submitting}
        onChange={(e) => {
          setText(e.target.value);
          grow();
          onTyping();
        }}
        onKeyDown={onKeyDown}
      />
      <div className={s.footerRow}>
        {sendWithEnterOption && (
          <label>
            <input
              type="checkbox"
              checked={sendWithEnter}
              onChange={(e) => setSendWithEnter(e.target.checked)}
            />
            {CHAT_TEXTS.sendWithEnter}
          </label>
        )}
        {desktop && (
          <span id={counterId} className={s.counter}>
            {CHAT_TEXTS.counter(text.length)}
          </span>
        )}
        <button type="submit" className={`${primaryButton} ${s.send}`} disabled={!canSend}>
          {CHAT_TEXTS.send}
        </button>
      </div>
    </form>
  );
}
