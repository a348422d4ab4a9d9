import { useMemo } from 'react';
import { trustedHtml } from '../../client-kit/security/trusted-types.ts';
import { html as htmlClass } from '../meeting-ui/meeting.styles.ts';

/**
 * Server HTML, always through the Trusted Types policy (DOMPurify, text elements only). Sanitised
 * once per text, not on every render: a page that re-renders (a live query's answer, a refetch with
 * the same content) neither parses the HTML again nor has React write the same markup anew.
 */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const sanitised = useMemo(() => ({ __html: trustedHtml(html) }), [html]);
  return <div className={`${htmlClass} ${className ?? ''}`} dangerouslySetInnerHTML={sanitised} />;
}
