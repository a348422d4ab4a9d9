import { trustedHtml } from '../../client-kit/security/trusted-types.ts';
import { html as htmlClass } from './group-support.styles.ts';

/** Server HTML, always through the Trusted Types policy (DOMPurify, text elements only). */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={`${htmlClass} ${className ?? ''}`}
      dangerouslySetInnerHTML={{ __html: trustedHtml(html) }}
    />
  );
}
