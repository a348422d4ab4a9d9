import { useEffect, useRef, useState } from 'react';
import { IFRAME_OPEN_DELAY_MS } from '../../contract/timings.ts';
import { Modal } from './modal.tsx';
import { DIALOG_TEXTS } from './texts.ts';
import { secondaryButton } from '../styles/controls.ts';
import { frame, frameBar } from './embedded-page-dialog.styles.ts';

export const IFRAME_BACK_MESSAGE = 'iframeBack';
/**
 * The embedded page keeps its own scripts (it answers 'iframeBack') and origin (its own storage;
 * and a frame back on this site must be readable for the dialog to close), and may open its links
 * in a new tab; it may not navigate the child's tab, submit forms, open dialogs or download.
 */
export const EMBEDDED_PAGE_SANDBOX =
  'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/**
 * The product's own child, peer and test-environment hosts: when the frame lands on one of them the
 * embedded page has sent the user back to us, so the dialog closes.
 */
export function isOwnHost(hostname: string): boolean {
  if (hostname === window.location.hostname) return true;
  return /(^|\.)(barn|peers|test)[.-]/.test(hostname);
}

/** The frame's address when it can be read: only same-origin pages allow it, others throw. */
function frameHostname(iframe: HTMLIFrameElement): string | null {
  try {
    return iframe.contentWindow?.location.hostname || null;
  } catch {
    return null;
  }
}

export interface EmbeddedPageDialogProps {
  url: string | null;
  title: string;
  onClose: () => void;
}

/** Loads an external page in a frame inside a large modal (SPEC §2 Embedded-page dialog). */
export function EmbeddedPageDialog({ url, title, onClose }: EmbeddedPageDialogProps) {
  const [open, setOpen] = useState(false);
  const iframe = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (!url) {
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => setOpen(true), IFRAME_OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [url]);

  const onLoad = () => {
    const frameElement = iframe.current;
    if (!frameElement || !url) return;
    const hostname = frameHostname(frameElement);
    const landedHome = hostname !== null && hostname !== new URL(url, location.href).hostname;
    if (landedHome && isOwnHost(hostname)) onClose();
  };

  // The embedded page has its own history; ask it to go back instead of closing the dialog.
  const relayBack = () => iframe.current?.contentWindow?.postMessage(IFRAME_BACK_MESSAGE, '*');

  return (
    <Modal open={open && url !== null} onClose={onClose} title={title} titleSize="small" extraWide>
      <div className={frameBar}>
        <button type="button" className={secondaryButton} onClick={relayBack}>
          {DIALOG_TEXTS.back}
        </button>
      </div>
      {url && (
        <iframe
          ref={iframe}
          className={frame}
          src={url}
          title={title}
          onLoad={onLoad}
          sandbox={EMBEDDED_PAGE_SANDBOX}
        />
      )}
    </Modal>
  );
}
