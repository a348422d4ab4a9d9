import { primaryButton } from '../styles/controls.ts';
import { minimizedBar } from './chat-window.styles.ts';
import { CHAT_TEXTS } from './texts.ts';

/** The minimised chat: one button that restores it; its label tells what is going on. */
export function MinimizedBar({
  label,
  onRestore,
  onRestoreSoon,
}: {
  label: string;
  onRestore: () => void;
  /** A pointer is down on the bar: the restore follows (its messages may be read meanwhile). */
  onRestoreSoon?: () => void;
}) {
  return (
    <div className={minimizedBar}>
      <button
        type="button"
        className={primaryButton}
        onClick={onRestore}
        onPointerDown={onRestoreSoon}
        aria-describedby="chat-minimized-hint"
      >
        {label}
      </button>
      {/* Only a description: hidden, so that it is no loose text outside the page's landmarks. */}
      <span id="chat-minimized-hint" hidden>
        {CHAT_TEXTS.restore}
      </span>
    </div>
  );
}
