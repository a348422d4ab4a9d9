import { deflateSync } from 'node:zlib';

/**
 * PDFs written by hand as a writer writes them: numbered objects, then a cross-reference table
 * (or, with packed objects, an object stream and a cross-reference stream) with exact offsets and
 * a trailer, so a reader opens them and follows what they say.
 */

/** An object's body (what stands between `n 0 obj` and `endobj`); `null`: it lies inside another's data. */
export type PdfObject = string | Buffer | null;

const bytes = (part: string | Buffer) => (Buffer.isBuffer(part) ? part : Buffer.from(part, 'latin1'));

/** A stream object's body: its dictionary entries (without /Length) and its data. */
export function stream(entries: string, data: string | Buffer): Buffer {
  const body = bytes(data);
  return Buffer.concat([
    bytes(`<< ${entries} /Length ${body.length} >>\nstream\n`),
    body,
    bytes('\nendstream'),
  ]);
}

/** One page of 595 x 842 points, object 3 under the pages tree 2, with these further entries. */
export const page = (more = '') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R ${more} >>`;
/** The page's drawing: a line of text, as page content is (compressed). */
export const content = () =>
  stream('/Filter /FlateDecode', deflateSync(Buffer.from('BT /F1 12 Tf 72 770 Td (Läxa) Tj ET', 'latin1')));

/**
 * Objects 1.. as given (object 1 the catalog), a cross-reference table and a trailer. An object
 * given as `null` is found where its header stands inside another object's data, and listed there.
 */
export function makePdf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    if (body === null) return;
    offsets[i + 1] = at;
    const part = Buffer.concat([bytes(`${i + 1} 0 obj\n`), bytes(body), bytes('\nendobj\n')]);
    parts.push(part);
    at += part.length;
  });
  const file = Buffer.concat(parts);
  objects.forEach((body, i) => {
    if (body === null) offsets[i + 1] = file.indexOf(`${i + 1} 0 obj`, 0, 'latin1');
  });
  const rows = ['0000000000 65535 f \n'];
  for (let n = 1; n <= objects.length; n++) rows.push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  const table = `xref\n0 ${objects.length + 1}\n${rows.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`;
  return Buffer.concat([file, bytes(table)]);
}

/**
 * PDF 1.5 as most writers make it today: `plain` objects in the file, `packed` ones compressed in an
 * object stream (FlateDecode), found through a cross-reference stream. `objectStream` writes the
 * object stream's dictionary entries (`first`: where its objects begin; /Length is added), for
 * files that hide the stream from a plain search.
 */
export function makePackedPdf(
  plain: Record<number, string | Buffer>,
  packed: Record<number, string>,
  objectStream: (count: number, first: number) => string = (count, first) =>
    `/Type /ObjStm /N ${count} /First ${first} /Filter /FlateDecode`,
  encode: (objects: Buffer) => Buffer = (objects) => deflateSync(objects),
): Buffer {
  const numbers = [...Object.keys(plain), ...Object.keys(packed)].map(Number);
  const streamNumber = Math.max(...numbers) + 1;
  const xrefNumber = streamNumber + 1;
  const packedNumbers = Object.keys(packed).map(Number);
  let header = '';
  let body = '';
  for (const n of packedNumbers) {
    header += `${n} ${body.length} `;
    body += `${packed[n]}\n`;
  }
  const packedStream = stream(
    objectStream(packedNumbers.length, header.length),
    encode(Buffer.from(header + body, 'latin1')),
  );
  const parts: Buffer[] = [bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets = new Map<number, number>();
  let at = parts[0]!.length;
  const add = (n: number, object: string | Buffer) => {
    offsets.set(n, at);
    const part = Buffer.concat([bytes(`${n} 0 obj\n`), bytes(object), bytes('\nendobj\n')]);
    parts.push(part);
    at += part.length;
  };
  for (const [n, object] of Object.entries(plain)) add(Number(n), object);
  add(streamNumber, packedStream);
  const xrefAt = at;
  // /W [1 4 2]: the type, then the offset (1) or the object stream's number (2), then the index.
  const row = (type: number, field: number, index: number) => {
    const entry = Buffer.alloc(7);
    entry.writeUInt8(type, 0);
    entry.writeUInt32BE(field, 1);
    entry.writeUInt16BE(index, 5);
    return entry;
  };
  const rows: Buffer[] = [row(0, 0, 65535)];
  for (let n = 1; n < xrefNumber; n++) {
    const index = packedNumbers.indexOf(n);
    rows.push(index >= 0 ? row(2, streamNumber, index) : row(1, offsets.get(n) ?? 0, 0));
  }
  rows.push(row(1, xrefAt, 0));
  add(xrefNumber, stream(`/Type /XRef /Size ${xrefNumber + 1} /W [1 4 2] /Root 1 0 R`, Buffer.concat(rows)));
  return Buffer.concat([...parts, bytes(`startxref\n${xrefAt}\n%%EOF\n`)]);
}
