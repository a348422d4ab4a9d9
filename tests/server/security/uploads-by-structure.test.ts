import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../../server/files/file-type.ts';
import { docx, makeZip, odt } from './zip-writer.ts';

/**
 * Attack: a document that is something else inside. Only magic bytes were checked: a zip holding an
 * `.exe` named `.docx`, and a PDF that runs script when opened, were stored and offered to group
 * leaders and children. Now a Word file needs the structure of one (its `[Content_Types].xml`
 * declaring a Word document, not a macro-enabled one), no document may hold a program, script or
 * macro, and a PDF may not name script, launch, embedded files or form actions, also escaped or
 * hidden in a compressed object stream. (The upload route answers 415 for what this refuses:
 * tests/server/api/meetings.test.ts.)
 */
const MZ = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);
const pdf = (body: string) => Buffer.from(`%PDF-1.7\n${body}\ntrailer<< /Root 1 0 R >>\n%%EOF\n`, 'latin1');

describe('a Word document', () => {
  it('with its structure and nothing runnable is a .docx', () => {
    expect(detectFileKind(docx(), 'läxa.docx')).toBe('docx');
    expect(detectFileKind(docx([{ name: 'word/media/bild.png', data: 'png' }]), 'läxa.docx')).toBe('docx');
  });

  it('holding a program, a script or a macro is refused', () => {
    for (const name of [
      'payload.exe',
      'word/embeddings/run.EXE',
      'start.bat',
      'x.js',
      'word/vbaProject.bin',
      'a/b.lnk',
    ])
      expect(detectFileKind(docx([{ name, data: MZ }]), 'läxa.docx'), name).toBeNull();
  });

  it('without a valid [Content_Types].xml, or macro-enabled, is refused', () => {
    // What only the magic bytes and a name inside passed: a zip that mentions word/document.xml.
    expect(
      detectFileKind(
        makeZip([
          { name: 'word/document.xml', data: 'x' },
          { name: 'run.exe', data: MZ },
        ]),
        'läxa.docx',
      ),
    ).toBeNull();
    expect(detectFileKind(makeZip([{ name: 'word/document.xml', data: 'x' }]), 'läxa.docx')).toBeNull();
    expect(detectFileKind(docx([], 'inte xml'), 'läxa.docx')).toBeNull();
    expect(
      detectFileKind(
        docx(
          [],
          '<Types><Override ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>',
        ),
        'läxa.docx',
      ),
    ).toBeNull();
  });

  it('that is a broken zip is refused', () => {
    const whole = docx();
    expect(detectFileKind(whole.subarray(0, whole.length - 30), 'läxa.docx')).toBeNull();
  });
});

describe('an OpenDocument text', () => {
  it('with its structure is an .odt; with a program or a macro it is refused', () => {
    expect(detectFileKind(odt(), 'läxa.odt')).toBe('odt');
    expect(detectFileKind(odt([{ name: 'program.exe', data: MZ }]), 'läxa.odt')).toBeNull();
    expect(
      detectFileKind(odt([{ name: 'Basic/Standard/Module1.xml', data: '<script/>' }]), 'läxa.odt'),
    ).toBeNull();
  });
});

describe('a PDF', () => {
  it('that only shows is a PDF, an /OpenAction that sets the first view included', () => {
    expect(
      detectFileKind(pdf('1 0 obj << /Type /Catalog /OpenAction [3 0 R /Fit] >> endobj'), 'läxa.pdf'),
    ).toBe('pdf');
  });

  it('that runs script, launches a program or carries a file is refused, escaped names too', () => {
    for (const body of [
      '1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj',
      '1 0 obj << /Type /Catalog /OpenAction << /S /J#61vaScript /J#53 (app.alert(1)) >> >> endobj',
      '1 0 obj << /Type /Action /S /Launch /F (cmd.exe) >> endobj',
      '1 0 obj << /Names << /EmbeddedFiles 2 0 R >> >> endobj',
      '1 0 obj << /AcroForm << /XFA 2 0 R >> >> endobj',
    ])
      expect(detectFileKind(pdf(body), 'läxa.pdf'), body).toBeNull();
  });

  it('that hides script in a compressed object stream is refused', () => {
    const hidden = deflateSync(Buffer.from('5 0 << /S /JavaScript /JS (app.alert(1)) >>', 'latin1'));
    const body = `4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${hidden.length} >>\nstream\n`;
    const file = Buffer.concat([
      Buffer.from(`%PDF-1.7\n${body}`, 'latin1'),
      hidden,
      Buffer.from('\nendstream\nendobj\ntrailer<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]);
    expect(detectFileKind(file, 'läxa.pdf')).toBeNull();
    const shown = deflateSync(Buffer.from('5 0 << /Type /Page /MediaBox [0 0 612 792] >>', 'latin1'));
    const clean = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n4 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${shown.length} >>\nstream\n`,
        'latin1',
      ),
      shown,
      Buffer.from('\nendstream\nendobj\ntrailer<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]);
    expect(detectFileKind(clean, 'läxa.pdf')).toBe('pdf');
  });

  it('is read stream by stream: script in a later object stream is found, data streams are not read for names', () => {
    const objStm = (objects: string) => {
      const packed = deflateSync(Buffer.from(objects, 'latin1'));
      return Buffer.concat([
        Buffer.from(
          `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
          'latin1',
        ),
        packed,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]);
    };
    const obj = (n: number, body: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`${n} 0 obj `, 'latin1'),
        Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      ]);
    const drawing = (bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`<< /Length ${bytes.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
        bytes,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]);
    const file = (...parts: Buffer[]) =>
      Buffer.concat([Buffer.from('%PDF-1.7\n'), ...parts, Buffer.from('trailer<< /Root 1 0 R >>\n%%EOF\n')]);
    // A harmless stream first, then an object stream that hides script: found.
    const hidden = file(
      obj(3, drawing(deflateSync('q 1 0 0 1 0 0 cm Q'))),
      obj(4, objStm('5 0 << /S /JavaScript /JS (x) >>')),
    );
    expect(detectFileKind(hidden, 'läxa.pdf')).toBeNull();
    // An object stream followed by a cross-reference stream, as PDF 1.5 writers make them: shown.
    const xref = Buffer.concat([
      Buffer.from('<< /Type /XRef /Size 6 /W [1 2 1] /Filter /FlateDecode /Length 8 >>\nstream\n', 'latin1'),
      deflateSync(Buffer.from([1, 0, 15, 0])),
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ]);
    expect(detectFileKind(file(obj(4, objStm('5 0 << /Type /Page >>')), obj(6, xref)), 'läxa.pdf')).toBe(
      'pdf',
    );
    // Image bytes that happen to spell /JS are pixels, not a name.
    const pixels = Buffer.concat([
      Buffer.from([0, 1, 2]),
      Buffer.from('/JS ', 'latin1'),
      Buffer.from([3, 4]),
    ]);
    const image = Buffer.concat([
      Buffer.from(`<< /Type /XObject /Subtype /Image /Length ${pixels.length} >>\nstream\n`, 'latin1'),
      pixels,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ]);
    expect(detectFileKind(file(obj(7, image)), 'bild.pdf')).toBe('pdf');
  });
});
