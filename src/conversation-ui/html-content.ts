import { escapeHtml } from './chat-text.ts';

/** SPEC §2 group information: the first bold element (b or strong) becomes a heading. */
export function promoteFirstBold(html: string, level = 3): string {
  return html.replace(/<(b|strong)(\s[^>]*)?>([\s\S]*?)<\/\1>/i, (_m, _tag, _attrs, inner: string) => {
    return `<h${level}>${inner}</h${level}>`;
  });
}

/** Plain text description: escaped, newlines become line breaks (SPEC §3 Meeting). */
export function textToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

/** The description as HTML: HTML content types kept (sanitised by the caller), text converted. */
export function descriptionHtml(content: string, contentType: string): string {
  return /html/i.test(contentType) ? content : textToHtml(content);
}

/** 'Max 10 MB per fil'... : bytes in whole megabytes. */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
