import { inflateRawSync } from 'node:zlib';

/**
 * A document is what it says it is inside, not only in its first bytes: a zip named `.docx` that
 * holds an `.exe`, or a PDF that runs script when it is opened, would otherwise be stored and
 * offered to a group leader or a child as homework. Nothing here writes a file or follows a path;
 * the entries are only read, each within a size cap. PDFs: pdf-structure.ts.
 */

/** Entries no text document needs: programs, scripts, shortcuts, and Office macros. */
const EXECUTABLE_ENTRY =
  /(\.(exe|dll|com|scr|pif|bat|cmd|ps1|psm1|vbs|vbe|js|jse|wsf|wsh|hta|msi|msp|jar|sh|app|lnk|reg|cpl|apk|dmg|iso|docm|dotm|xlsm|pptm)$)|(^|\/)vbaProject\.bin$|(^|\/)vbaData\.xml$/i;
/** Where a Word file carries other files or controls: OLE packages (which can hold a program) and ActiveX. */
const EMBEDDING_ENTRY = /^word\/(embeddings|activeX)\//i;
const MAX_ENTRIES = 5000;
/** The most a single entry that is read (the content types) may inflate to. */
const MAX_INFLATED_BYTES = 8 * 1024 * 1024;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

const u16 = (b: Buffer, at: number) => b.readUInt16LE(at);
const u32 = (b: Buffer, at: number) => b.readUInt32LE(at);

/** The central directory's entries, or null when the zip is not one a reader could trust. */
export function zipEntries(data: Uint8Array): ZipEntry[] | null {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // The end record is in the last 22 bytes plus at most a 65535-byte comment.
  let end = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    // The end record's comment runs to the end of the file exactly: a record found elsewhere is
    // a decoy that one reader would take and another would not.
    if (u32(b, i) === 0x06054b50 && i + 22 + u16(b, i + 20) === b.length) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(b, end + 10);
  const size = u32(b, end + 12);
  const offset = u32(b, end + 16);
  if (count > MAX_ENTRIES || offset + size > end) return null;
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || u32(b, at) !== 0x02014b50) return null;
    const nameLength = u16(b, at + 28);
    const skip = nameLength + u16(b, at + 30) + u16(b, at + 32);
    if (at + 46 + skip > end) return null;
    entries.push({
      method: u16(b, at + 10),
      compressedSize: u32(b, at + 20),
      localOffset: u32(b, at + 42),
      name: b.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + skip;
  }
  return entries;
}

/** One entry's content (stored or deflated), or null when it cannot be read within the cap. */
function zipEntryData(data: Uint8Array, entry: ZipEntry): Buffer | null {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const at = entry.localOffset;
  if (at + 30 > b.length || u32(b, at) !== 0x04034b50) return null;
  const start = at + 30 + u16(b, at + 26) + u16(b, at + 28);
  const raw = b.subarray(start, start + entry.compressedSize);
  if (raw.length !== entry.compressedSize) return null;
  try {
    if (entry.method === 0) return raw.length <= MAX_INFLATED_BYTES ? raw : null;
    if (entry.method === 8) return inflateRawSync(raw, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch {
    return null;
  }
  return null;
}

/** Windows ignores trailing dots and spaces: `run.exe.` starts as `run.exe`. */
const unsafeName = (name: string) =>
  EXECUTABLE_ENTRY.test(name.replace(/[. ]+$/, '')) ||
  EMBEDDING_ENTRY.test(name) ||
  name.startsWith('/') ||
  name.split(/[\\/]/).includes('..');

/**
 * A Word document: a zip whose `[Content_Types].xml` declares the main document of a .docx (not a
 * macro-enabled one), with `word/document.xml`, and no program, script or macro anywhere in it.
 */
export function isSafeDocx(data: Uint8Array): boolean {
  const entries = zipEntries(data);
  if (!entries || entries.some((e) => unsafeName(e.name))) return false;
  const types = entries.find((e) => e.name === '[Content_Types].xml');
  if (!types || !entries.some((e) => e.name === 'word/document.xml')) return false;
  const xml = zipEntryData(data, types)?.toString('utf8');
  if (!xml || !/<Types[\s>]/.test(xml)) return false;
  if (/macroEnabled|vbaProject/i.test(xml)) return false;
  return xml.includes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml');
}

/** An OpenDocument text: its `mimetype` entry says so, it has `content.xml`, and nothing runnable. */
export function isSafeOdt(data: Uint8Array): boolean {
  const entries = zipEntries(data);
  if (!entries || entries.some((e) => unsafeName(e.name))) return false;
  // Macros of an OpenDocument file live under Basic/ or Scripts/.
  if (entries.some((e) => /^(Basic|Scripts)\//i.test(e.name))) return false;
  const mimetype = entries.find((e) => e.name === 'mimetype');
  if (!mimetype || !entries.some((e) => e.name === 'content.xml')) return false;
  return zipEntryData(data, mimetype)?.toString('latin1') === 'application/vnd.oasis.opendocument.text';
}
