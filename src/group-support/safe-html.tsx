import { html as htmlClass } from './group-support.styles.ts';
import { sanitizeHtml } from './sanitize.ts';

/** Server HTML, always through DOMPurify before it reaches the page. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={`${htmlClass} ${className ?? ''}`}
      dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }}
    />
  );
}
