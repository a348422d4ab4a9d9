// The formats Chromium 156 writes an origin's IndexedDB in, as far as reading its files back needs
// them (e2e/support/profile-attack.ts says what was found where): LevelDB's log records and table
// blocks, Snappy, and Blink's own compression of large values.

export function readVarint(bytes: Uint8Array, at: number, end = bytes.length): [value: number, next: number] {
  let value = 0;
  for (let shift = 0, p = at; p < end && shift < 50; shift += 7) {
    const byte = bytes[p++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, p];
  }
  throw new Error(`bad varint at ${at}`);
}

/** Larger than anything a profile of this app holds: a corrupt length is refused, not allocated. */
const SNAPPY_MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Snappy's raw format (the one LevelDB's blocks and Blink's compressed values use): a varint of the
 * uncompressed length, then elements, each a literal (tag type 0) or a copy of earlier output
 * (types 1-3, with a 1-, 2- or 4-byte offset). Reads from `start` until the output is complete;
 * throws on anything that is not Snappy (a corrupt length, a copy from before the start).
 */
export function snappyDecompress(input: Uint8Array, start = 0, end = input.length): Uint8Array {
  const [length, first] = readVarint(input, start, end);
  if (length > SNAPPY_MAX_OUTPUT) throw new Error('snappy: length out of range');
  const out = new Uint8Array(length);
  let p = first;
  let o = 0;
  const byteAt = (i: number) => {
    if (i >= end) throw new Error('snappy: truncated');
    return input[i]!;
  };
  while (o < length) {
    const tag = byteAt(p++);
    const type = tag & 3;
    if (type === 0) {
      let n = tag >> 2;
      if (n >= 60) {
        const lengthBytes = n - 59;
        n = 0;
        for (let i = 0; i < lengthBytes; i++) n += byteAt(p++) * 2 ** (8 * i);
      }
      n += 1;
      if (p + n > end || o + n > length) throw new Error('snappy: literal out of range');
      out.set(input.subarray(p, p + n), o);
      p += n;
      o += n;
      continue;
    }
    let n: number;
    let offset: number;
    if (type === 1) {
      n = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | byteAt(p++);
    } else if (type === 2) {
      n = (tag >> 2) + 1;
      offset = byteAt(p) | (byteAt(p + 1) << 8);
      p += 2;
    } else {
      n = (tag >> 2) + 1;
      offset = (byteAt(p) | (byteAt(p + 1) << 8) | (byteAt(p + 2) << 16)) + byteAt(p + 3) * 2 ** 24;
      p += 4;
    }
    if (offset === 0 || offset > o || o + n > length) throw new Error('snappy: copy out of range');
    // Byte by byte: a copy may overlap what it writes (a run).
    for (let i = 0; i < n; i++, o++) out[o] = out[o - offset]!;
  }
  return out;
}

const LOG_BLOCK = 32 * 1024;
const LOG_HEADER = 7;

/**
 * A LevelDB log (and MANIFEST): 32 KiB blocks of records, each fragment behind a header (crc32c,
 * length, type: 1 whole, 2 first, 3 middle, 4 last). Answers the records' payloads joined, and
 * where fragments were joined (the only places its windows differ from the file's).
 */
export function leveldbLogRecords(file: Uint8Array): { bytes: Uint8Array; joins: number[] } {
  const parts: Uint8Array[] = [];
  const joins: number[] = [];
  let size = 0;
  let pending: Uint8Array[] = [];
  const emit = (fragments: Uint8Array[]) => {
    for (const fragment of fragments) {
      if (size > 0) joins.push(size);
      parts.push(fragment);
      size += fragment.length;
    }
  };
  for (let block = 0; block < file.length; block += LOG_BLOCK) {
    const blockEnd = Math.min(block + LOG_BLOCK, file.length);
    for (let p = block; p + LOG_HEADER <= blockEnd;) {
      const length = file[p + 4]! | (file[p + 5]! << 8);
      const type = file[p + 6]!;
      // Zeros: the rest of the block is padding, or the file was preallocated past its end.
      if (type === 0 || p + LOG_HEADER + length > blockEnd) break;
      const fragment = file.subarray(p + LOG_HEADER, p + LOG_HEADER + length);
      p += LOG_HEADER + length;
      if (type === 1) {
        emit([fragment]);
        pending = [];
      } else if (type === 2) pending = [fragment];
      else if (type === 3 && pending.length > 0) pending.push(fragment);
      else if (type === 4 && pending.length > 0) {
        emit([...pending, fragment]);
        pending = [];
      }
    }
  }
  // A record cut short (the browser stopped mid-write) is kept too: an attacker reads what is there.
  emit(pending);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, joins };
}

const TABLE_MAGIC = [0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb];
const TABLE_FOOTER = 48;
const BLOCK_TRAILER = 5;

interface TableBlock {
  offset: number;
  /** The block's bytes, decompressed where they were compressed. */
  bytes: Uint8Array;
  compressed: boolean;
}

/**
 * A LevelDB table (`.ldb`, `.sst`): the footer names the index block, whose entries name the data
 * blocks; each block is followed by a type byte (0 plain, 1 Snappy) and a checksum. Answers every
 * block it could read, and what it could not.
 */
export function leveldbTableBlocks(file: Uint8Array): { blocks: TableBlock[]; notes: string[] } {
  const notes: string[] = [];
  const blocks: TableBlock[] = [];
  if (file.length < TABLE_FOOTER || TABLE_MAGIC.some((b, i) => file[file.length - 8 + i] !== b)) {
    return { blocks, notes: ['not a LevelDB table (no footer): read raw only'] };
  }
  const read = (offset: number, size: number): TableBlock | null => {
    if (offset + size + BLOCK_TRAILER > file.length) return null;
    const type = file[offset + size]!;
    const raw = file.subarray(offset, offset + size);
    if (type === 0) return { offset, bytes: raw, compressed: false };
    if (type === 1) return { offset, bytes: snappyDecompress(raw), compressed: true };
    notes.push(`block at ${offset}: compression type ${type} not decoded`);
    return null;
  };
  try {
    const footer = file.length - TABLE_FOOTER;
    const [, afterMetaOffset] = readVarint(file, footer);
    const [, afterMetaSize] = readVarint(file, afterMetaOffset);
    const [indexOffset, afterIndexOffset] = readVarint(file, afterMetaSize);
    const [indexSize] = readVarint(file, afterIndexOffset);
    const index = read(indexOffset, indexSize);
    if (!index) return { blocks, notes: [...notes, 'index block unreadable'] };
    blocks.push(index);
    for (const handle of blockEntries(index.bytes)) {
      const [offset, next] = readVarint(handle, 0);
      const [size] = readVarint(handle, next);
      const block = read(offset, size);
      if (block) blocks.push(block);
    }
  } catch (error) {
    notes.push(`table unreadable: ${(error as Error).message}`);
  }
  return { blocks, notes };
}

/** The values of a LevelDB block's entries (keys are prefix-compressed; the index's values are handles). */
export function blockEntries(block: Uint8Array): Uint8Array[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const restarts = view.getUint32(block.length - 4, true);
  const end = block.length - 4 - restarts * 4;
  const values: Uint8Array[] = [];
  for (let p = 0; p < end;) {
    const [, afterShared] = readVarint(block, p, end);
    const [unshared, afterUnshared] = readVarint(block, afterShared, end);
    const [valueLength, afterValueLength] = readVarint(block, afterUnshared, end);
    const valueAt = afterValueLength + unshared;
    values.push(block.subarray(valueAt, valueAt + valueLength));
    p = valueAt + valueLength;
  }
  return values;
}

/** Blink's marker of a value it compressed itself: 0xFF, pseudo-version 0x11, then 2 (Snappy). */
export const BLINK_SNAPPY = Uint8Array.of(0xff, 0x11, 0x02);

export function indexesOf(bytes: Uint8Array, needle: Uint8Array): number[] {
  const found: number[] = [];
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}
