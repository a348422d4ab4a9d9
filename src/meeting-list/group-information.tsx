import { promoteFirstBold } from '../conversation-ui/html-content.ts';
import { SafeHtml } from '../conversation-ui/safe-html.tsx';

/** The series' group information; its first bold element becomes a heading (SPEC §2). */
export function GroupInformation({ html }: { html: string }) {
  if (!html.trim()) return null;
  return <SafeHtml html={promoteFirstBold(html)} />;
}
