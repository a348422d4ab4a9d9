import type { UPLOAD_LIMITS } from '../../contract/limits.ts';
import { isSafeDocx, isSafeOdt } from './document-structure.ts';
import { isSafePdf } from './pdf-structure.ts';

export type FileKind = (typeof UPLOAD_LIMITS.allowedKinds)[number];

const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  txt: 'text/plain; charset=utf-8',
};

const startsWith = (b: Uint8Array, bytes: number[], offset = 0) => bytes.every((x, i) => b[offset + i] === x);
const ascii = (b: Uint8Array, from: number, to: number) =>
  Buffer.from(b.subarray(from, to)).toString('latin1');

/**
 * The kind of a file by its content (magic bytes), never by its name or the browser's claim. A zip
 * is only accepted when its structure is a Word or OpenDocument text with nothing runnable in it
 * (server/files/document-structure.ts), a PDF only when nothing in it runs script or leaves the
 * document (server/files/pdf-structure.ts); plain text must be valid UTF-8 without control
 * characters. Anything else is refused.
 */
export function detectFileKind(data: Uint8Array, fileName: string): FileKind | null {
  if (data.length === 0) return null;
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return isSafePdf(data) ? 'pdf' : null;
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'webp';
  if (ascii(data, 4, 8) === 'ftyp' && ['heic', 'heix', 'mif1', 'heif'].includes(ascii(data, 8, 12)))
    return 'heic';
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return zipKind(data, fileName);
  return isPlainText(data) ? 'txt' : null;
}

/** A zip is a document only when its structure says so, and holds nothing runnable. */
function zipKind(data: Uint8Array, fileName: string): FileKind | null {
  const head = ascii(data, 0, Math.min(data.length, 4096));
  // An OpenDocument file's first entry is an uncompressed `mimetype` naming its type.
  if (head.includes('mimetypeapplication/vnd.oasis.opendocument.text')) return isSafeOdt(data) ? 'odt' : null;
  return /\.docx$/i.test(fileName) && isSafeDocx(data) ? 'docx' : null;
}

function isPlainText(data: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    // Tabs, newlines and carriage returns are text; other control characters mean a binary file.
    return ![...text].some((ch) => {
      const code = ch.charCodeAt(0);
      return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
    });
  } catch {
    return false;
  }
}

export const contentTypeOf = (kind: FileKind) => CONTENT_TYPES[kind];

const EXTENSIONS: Record<FileKind, string> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  gif: 'gif',
  webp: 'webp',
  heic: 'heic',
  docx: 'docx',
  odt: 'odt',
  txt: 'txt',
};

/**
 * The stored name ends in the extension of the detected type, whatever the uploader called it: a
 * text file named `svar.html` or `bild.svg` is stored as `svar.txt`, `bild.txt`, so no download ever
 * opens as a page or a script. An extension that already fits (`.jpeg` for JPEG) is kept.
 */
export function nameForKind(name: string, kind: FileKind): string {
  const ext = EXTENSIONS[kind];
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (current === ext || (kind === 'jpeg' && current === 'jpeg') || (kind === 'heic' && current === 'heif')) {
    return name;
  }
  return `${stem || 'fil'}.${ext}`;
}

/**
 * A file name safe to store and to send back in Content-Disposition: no folders, no controls and no
 * invisible format characters (\p{Cf}: a right-to-left override makes `fil\u202Eexe.txt` read as
 * `filtxt.exe`; zero-width characters hide a second name in the first).
 */
export function safeFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFC').replace(/[\p{Cc}\p{Cf}]/gu, '');
  const cleaned = [...base]
    .filter((ch) => !'"<>:|?*'.includes(ch))
    .join('')
    .trim()
    .slice(0, 120);
  return cleaned || 'fil';
}
