/** SPEC §5: chat text is escaped; urls become links opening in a new tab (www urls get http://). */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const URL_PATTERN = /\b((?:https?:\/\/|www\.)[^\s<]+[^\s<.,;:!?)'"])/gi;

/** Escaped HTML with links; newlines become line breaks. */
export function chatTextToHtml(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    const index = match.index;
    parts.push(escapeHtml(text.slice(last, index)));
    const href = /^www\./i.test(url) ? `http://${url}` : url;
    parts.push(
      `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`,
    );
    last = index + url.length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join('').replace(/\r?\n/g, '<br>');
}
