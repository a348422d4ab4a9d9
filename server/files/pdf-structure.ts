import { inflateRawSync } from 'node:zlib';

/**
 * A PDF that only shows: what it says in its objects is read as a PDF reader reads it (strings,
 * comments, dictionaries, streams), and nothing in it may make the reader act or leave the
 * document. The file is refused instead of cleaned (docs/decisions.md, "A PDF that leaves the
 * document is refused"). Nothing here writes or fetches; a file that cannot be read for sure is
 * refused.
 */

/**
 * Names refused wherever they stand (a key or a value, `#`-escaped, in a string or a comment,
 * inside an object stream): script; every action that leaves the document - a web address, another
 * file or a network share (`/GoToR`, `/Launch` to `\\server\share`), a program, a form sent or data
 * fetched, an embedded document opened - and the file specifications of a URL; media that plays a
 * file; and what carries other files or scripted forms.
 */
const LEAVING_NAMES = new Set([
  'JavaScript',
  'JS',
  'URI',
  'URL',
  'GoToR',
  'GoToE',
  'Launch',
  'SubmitForm',
  'ImportData',
  'Movie',
  'Sound',
  'Rendition',
  'RichMedia',
  'RichMediaExecute',
  'EmbeddedFile',
  'EmbeddedFiles',
  'FileAttachment',
  'XFA',
]);
/** The named actions every reader knows; any other name runs a menu item of the reader's own. */
const STANDARD_NAMED_ACTIONS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

/** The most one object stream may inflate to, and all of a file's together. */
const MAX_INFLATED_BYTES = 8 * 1024 * 1024;
const MAX_INFLATED_TOTAL = 4 * MAX_INFLATED_BYTES;
/** Dictionaries and arrays nested deeper than this are no document's. */
const MAX_DEPTH = 100;

/** PDF white space: NUL and form feed too (a reader ends a name at NUL). */
const isWhite = (c: number) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
const isDelimiter = (c: number) =>
  c === 0x28 ||
  c === 0x29 ||
  c === 0x3c ||
  c === 0x3e ||
  c === 0x5b ||
  c === 0x5d ||
  c === 0x7b ||
  c === 0x7d ||
  c === 0x2f ||
  c === 0x25;
/** A character that continues a name or a keyword (the end of the text does not). */
const isRegular = (c: number) => !Number.isNaN(c) && !isWhite(c) && !isDelimiter(c);

/** Every name in PDF text, `#xx` decoded as a reader decodes it (`/#55RI` is `/URI`). */
const NAME = /\/([^\0\t\n\f\r ()<>[\]{}/%]*)/g;
const decodeName = (raw: string) =>
  raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

class Refused extends Error {}
const refuse = (why: string): never => {
  throw new Refused(why);
};

type Token =
  | { type: 'name'; value: string; start: number; end: number }
  | { type: 'number'; value: number; start: number; end: number }
  | { type: 'keyword'; value: string; start: number; end: number }
  | { type: 'string' | '<<' | '>>' | '[' | ']' | 'other'; start: number; end: number };

/** Tokens of PDF text, as a reader's lexer cuts them, with look-ahead and the last few taken. */
class Tokens {
  private ahead: Token[] = [];
  /** The last four tokens taken, for an object's header (`12 0 obj`). */
  readonly history: Token[] = [];

  constructor(
    private readonly text: string,
    private pos = 0,
  ) {}

  next(): Token | null {
    const token = this.ahead.shift() ?? this.lex();
    if (token) {
      this.history.push(token);
      if (this.history.length > 4) this.history.shift();
    }
    return token;
  }

  peek(n = 0): Token | null {
    while (this.ahead.length <= n) {
      const token = this.lex();
      if (!token) return null;
      this.ahead.push(token);
    }
    return this.ahead[n]!;
  }

  /** Goes on reading at `pos` (after a stream's data), forgetting what was looked ahead at. */
  seek(pos: number): void {
    this.ahead = [];
    this.pos = pos;
  }

  /** Reads the token just taken again next (an `obj` that ended an object, read again at the top). */
  unread(token: Token): void {
    if (this.history[this.history.length - 1] === token) this.history.pop();
    this.seek(token.start);
  }

  private lex(): Token | null {
    const { text } = this;
    const end = text.length;
    while (this.pos < end) {
      const c = text.charCodeAt(this.pos);
      if (isWhite(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < end && text.charCodeAt(this.pos) !== 10 && text.charCodeAt(this.pos) !== 13)
          this.pos++;
      } else break;
    }
    if (this.pos >= end) return null;
    const start = this.pos;
    const c = text.charCodeAt(start);
    const two = text.charCodeAt(start + 1);
    if (c === 0x28) return { type: 'string', start, end: (this.pos = this.literalStringEnd(start)) };
    if (c === 0x3c && two === 0x3c) return { type: '<<', start, end: (this.pos += 2) };
    if (c === 0x3e && two === 0x3e) return { type: '>>', start, end: (this.pos += 2) };
    if (c === 0x3c) {
      const close = text.indexOf('>', start);
      return { type: 'string', start, end: (this.pos = close < 0 ? end : close + 1) };
    }
    if (c === 0x5b) return { type: '[', start, end: ++this.pos };
    if (c === 0x5d) return { type: ']', start, end: ++this.pos };
    if (c === 0x2f) {
      this.pos++;
      while (this.pos < end && isRegular(text.charCodeAt(this.pos))) this.pos++;
      return { type: 'name', value: decodeName(text.slice(start + 1, this.pos)), start, end: this.pos };
    }
    if (isDelimiter(c)) return { type: 'other', start, end: ++this.pos };
    while (this.pos < end && isRegular(text.charCodeAt(this.pos))) this.pos++;
    const word = text.slice(start, this.pos);
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word))
      return { type: 'number', value: Number(word), start, end: this.pos };
    return { type: 'keyword', value: word, start, end: this.pos };
  }

  /** Balanced parentheses, a backslash escaping the next character; unterminated runs to the end. */
  private literalStringEnd(start: number): number {
    const { text } = this;
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return i + 1;
    }
    return text.length;
  }
}

type Value =
  | { kind: 'name'; name: string }
  | { kind: 'number'; value: number }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'dict'; entries: Map<string, Value> }
  | { kind: 'array'; names: string[]; others: boolean }
  | { kind: 'other' };

/** An object ended where a reader starts another (`obj`, `endobj`): reading goes on from there. */
const RESYNC = Symbol('resync');
type Parsed = Value | typeof RESYNC;

const endsObject = (t: Token) => t.type === 'keyword' && (t.value === 'obj' || t.value === 'endobj');
const isInteger = (t: Token | undefined) => t?.type === 'number' && Number.isInteger(t.value);

/**
 * Reads a whole file: its objects, the dictionaries of its streams and, inflated, its object
 * streams. Refuses (throws Refused) at the first thing that leaves the document or cannot be read.
 */
class PdfReader {
  readonly text: string;
  /** Stream data not read for names (page drawing, images, fonts): [start, end) in file order. */
  private readonly skipped: Array<[number, number]> = [];
  /** Where the `stream` keywords that began a stream stand. */
  private readonly streamsTaken = new Set<number>();
  private inflated = 0;
  private integerObjects: Map<string, number> | null = null;
  private readonly lines: LineEnds;

  constructor(private readonly bytes: Buffer) {
    this.text = bytes.toString('latin1');
    this.lines = new LineEnds(this.text);
  }

  check(): void {
    this.readObjects(new Tokens(this.text), true);
    this.refuseHiddenStreams();
    this.refuseNames(this.unskippedText());
  }

  /** Every object of `tokens`; streams only in the file itself (an object stream holds none). */
  private readObjects(tokens: Tokens, inFile: boolean): void {
    for (let token = tokens.next(); token; token = tokens.next()) {
      if (token.type === '[') this.array(tokens, 1, inFile);
      if (token.type !== '<<') continue;
      // `12 0 obj <<`: the dictionary of an indirect object, which a stream of the file follows.
      const h = tokens.history;
      const indirect =
        inFile &&
        h.length === 4 &&
        isInteger(h[0]) &&
        isInteger(h[1]) &&
        h[2]!.type === 'keyword' &&
        h[2]!.value === 'obj';
      const dict = this.dict(tokens, 1, inFile);
      if (dict !== RESYNC && dict.kind === 'dict' && inFile) this.streamAfter(tokens, dict, indirect);
    }
  }

  private value(tokens: Tokens, first: Token, depth: number, inFile: boolean): Parsed {
    if (first.type === '<<') {
      const dict = this.dict(tokens, depth + 1, inFile);
      if (dict !== RESYNC && dict.kind === 'dict' && inFile) this.streamAfter(tokens, dict, false);
      return dict;
    }
    if (first.type === '[') return this.array(tokens, depth + 1, inFile);
    if (first.type === 'name') return { kind: 'name', name: first.value };
    if (first.type === 'number') {
      const gen = tokens.peek(0);
      const r = tokens.peek(1);
      if (isInteger(first) && isInteger(gen ?? undefined) && r?.type === 'keyword' && r.value === 'R') {
        tokens.next();
        tokens.next();
        return { kind: 'ref', num: first.value, gen: gen!.type === 'number' ? gen!.value : 0 };
      }
      return { kind: 'number', value: first.value };
    }
    return { kind: 'other' };
  }

  /** A dictionary after its `<<`; like a reader, a key that is no name is passed over. */
  private dict(tokens: Tokens, depth: number, inFile: boolean): Parsed {
    if (depth > MAX_DEPTH) refuse('nested too deep');
    const entries = new Map<string, Value>();
    let resync = false;
    for (let token = tokens.next(); token && token.type !== '>>'; token = tokens.next()) {
      if (endsObject(token)) {
        // The `obj` or `endobj` is read again at the top, with its header.
        tokens.unread(token);
        resync = true;
        break;
      }
      if (token.type !== 'name') continue;
      const first = tokens.next();
      if (!first || first.type === '>>') break;
      if (endsObject(first)) {
        tokens.unread(first);
        resync = true;
        break;
      }
      const value = this.value(tokens, first, depth, inFile);
      if (value === RESYNC) {
        resync = true;
        break;
      }
      entries.set(token.value, value);
    }
    checkAction(entries);
    return resync ? RESYNC : { kind: 'dict', entries };
  }

  private array(tokens: Tokens, depth: number, inFile: boolean): Parsed {
    if (depth > MAX_DEPTH) refuse('nested too deep');
    const names: string[] = [];
    let others = false;
    for (let token = tokens.next(); token && token.type !== ']'; token = tokens.next()) {
      if (endsObject(token)) {
        tokens.unread(token);
        return RESYNC;
      }
      const value = this.value(tokens, token, depth, inFile);
      if (value === RESYNC) return RESYNC;
      if (value.kind === 'name') names.push(value.name);
      else others = true;
    }
    return { kind: 'array', names: names.slice(0, 16), others };
  }

  /**
   * A stream, if `stream` follows the dictionary just read. Its data ends where its /Length says
   * when `endstream` stands there, else at the first `endstream` (as readers do). An object stream
   * is inflated and read; the data of another stream of an indirect object is not read for names
   * (random bytes spell `/JS` now and then), but may hold no object or trailer a reader could be
   * sent to.
   */
  private streamAfter(tokens: Tokens, dict: { entries: Map<string, Value> }, indirect: boolean): void {
    const keyword = tokens.peek(0);
    if (keyword?.type !== 'keyword' || keyword.value !== 'stream') return;
    tokens.next();
    this.streamsTaken.add(keyword.start);
    const { text } = this;
    // The data starts on the next line: what follows `stream` on its own line is passed over.
    const lineEnd = /\r\n|\r|\n/g;
    lineEnd.lastIndex = keyword.end;
    const eol = lineEnd.exec(text) ?? refuse('stream without data');
    const start = eol.index + eol[0].length;
    let end = text.indexOf('endstream', start);
    if (end < 0) refuse('stream without an end');
    let keywordAt = end;
    const length = this.lengthOf(dict.entries.get('Length'));
    if (length !== null && start + length <= text.length) {
      const atLength = /[\0\t\n\f\r ]*endstream/y;
      atLength.lastIndex = start + length;
      const found = atLength.exec(text);
      if (found) {
        end = start + length;
        keywordAt = found.index + found[0].length - 'endstream'.length;
      }
    }
    if (isObjectStream(dict.entries)) this.readObjectStream(dict.entries, start, end);
    if (indirect) {
      refuseReachableObjects(text, start, keywordAt, this.lines);
      this.skipped.push([start, keywordAt]);
    }
    tokens.seek(keywordAt + 'endstream'.length);
  }

  /** A stream's /Length: a number, or the integer object it refers to (when the file holds it plainly). */
  private lengthOf(value: Value | undefined): number | null {
    if (value?.kind === 'number')
      return Number.isInteger(value.value) && value.value >= 0 ? value.value : null;
    if (value?.kind !== 'ref') return null;
    if (!this.integerObjects) {
      this.integerObjects = new Map();
      const plain =
        /(?<![0-9])([0-9]+)[\0\t\n\f\r ]+([0-9]+)[\0\t\n\f\r ]+obj[\0\t\n\f\r ]*([0-9]+)[\0\t\n\f\r ]*endobj/g;
      // The last definition of an object is the one in force (an incremental update).
      for (const m of this.text.matchAll(plain)) this.integerObjects.set(`${+m[1]!} ${+m[2]!}`, +m[3]!);
    }
    return this.integerObjects.get(`${value.num} ${value.gen}`) ?? null;
  }

  /**
   * The objects an object stream packs, read like the file's own. Only a plain or FlateDecode one
   * can be read for sure: another filter, a predictor (DecodeParms) or an external file (/F), and
   * data that does not inflate to its end, are refused.
   */
  private readObjectStream(entries: Map<string, Value>, start: number, end: number): void {
    if (['DecodeParms', 'DP', 'F', 'FFilter', 'FDecodeParms'].some((key) => entries.has(key)))
      refuse('object stream that cannot be read');
    const filter = entries.get('Filter');
    const filters =
      filter === undefined
        ? []
        : filter.kind === 'name'
          ? [filter.name]
          : filter.kind === 'array' && !filter.others
            ? filter.names
            : refuse('object stream with an unknown filter');
    const data = this.bytes.subarray(start, end);
    let content: Buffer;
    if (filters.length === 0) content = data;
    else if (filters.length === 1 && (filters[0] === 'FlateDecode' || filters[0] === 'Fl'))
      content = inflate(data);
    else return refuse('object stream with another filter');
    this.inflated += content.length;
    if (this.inflated > MAX_INFLATED_TOTAL) refuse('too much to inflate');
    const objects = content.toString('latin1');
    this.readObjects(new Tokens(objects), false);
    this.refuseNames(objects);
  }

  /**
   * `>> stream` (a dictionary and its stream, as any reader sees them) where this reading found no
   * stream: inside what it read as a string or a comment. Two readings of one file would differ.
   */
  private refuseHiddenStreams(): void {
    const { text } = this;
    for (let close = text.indexOf('>>'); close >= 0; close = text.indexOf('>>', close + 2)) {
      const at = skipForward(text, close + 2, this.lines);
      if (startsKeyword(text, at, 'stream') && !this.streamsTaken.has(at) && !this.isSkipped(at))
        refuse('a stream read in two ways');
    }
  }

  private isSkipped(at: number): boolean {
    let low = 0;
    let high = this.skipped.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const [from, to] = this.skipped[mid]!;
      if (at < from) high = mid - 1;
      else if (at >= to) low = mid + 1;
      else return true;
    }
    return false;
  }

  private unskippedText(): string {
    const parts: string[] = [];
    let from = 0;
    for (const [start, end] of this.skipped) {
      parts.push(this.text.slice(from, start));
      from = end;
    }
    parts.push(this.text.slice(from));
    return parts.join('\n');
  }

  private refuseNames(text: string): void {
    for (const m of text.matchAll(NAME)) if (LEAVING_NAMES.has(decodeName(m[1]!))) refuse(`/${m[1]}`);
  }
}

/** The kinds of action that leave the document without a name of their own. */
function checkAction(entries: Map<string, Value>): void {
  const type = entries.get('S');
  // A reader would look the action's type up: whatever it names, it is not shown here.
  if (type?.kind === 'ref') refuse('an action of a type given indirectly');
  if (type?.kind !== 'name') return;
  // A thread action may open an article of another file.
  if (type.name === 'Thread') refuse('a thread action');
  if (type.name === 'Named') {
    const name = entries.get('N');
    if (name?.kind !== 'name' || !STANDARD_NAMED_ACTIONS.has(name.name)) refuse('a named action of a reader');
  }
}

/** A reader takes a stream as an object stream by its /First (where its objects start) or its /Type. */
function isObjectStream(entries: Map<string, Value>): boolean {
  if (entries.has('First')) return true;
  const type = entries.get('Type');
  return type?.kind === 'name' && type.name === 'ObjStm';
}

/** zlib as readers take it: the header checked, the adler32 not; refused unless the data ends whole. */
function inflate(data: Buffer): Buffer {
  const cmf = data[0] ?? -1;
  const flg = data[1] ?? -1;
  if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) refuse('not zlib');
  try {
    return inflateRawSync(data.subarray(2), { maxOutputLength: MAX_INFLATED_BYTES });
  } catch {
    return refuse('does not inflate');
  }
}

/**
 * Stream data is not read for names, so a reader must never read objects in it: it may hold no
 * `obj` keyword after white space (an object's header, `12 0 obj`, with or without comments
 * between its words, which a cross-reference could point into) and no trailer.
 */
function refuseReachableObjects(text: string, from: number, to: number, lines: LineEnds): void {
  for (let at = text.indexOf('trailer', from); at >= 0 && at < to; at = text.indexOf('trailer', at + 7)) {
    if (text.startsWith('<<', skipForward(text, at + 7, lines))) refuse('a trailer in stream data');
  }
  for (let at = text.indexOf('obj', from); at >= 0 && at + 3 <= to; at = text.indexOf('obj', at + 3)) {
    const before = at > from ? text.charCodeAt(at - 1) : 32;
    if (isWhite(before) && !isRegular(text.charCodeAt(at + 3))) refuse('an object in stream data');
  }
}

/**
 * Where the line that holds `i` ends (a CR or LF at or after it), for skipping comments. Asked in
 * increasing order, one search serves every question within the same line, so a file of one long
 * line is read once, not once per question.
 */
class LineEnds {
  private from = -1;
  private end = -1;

  constructor(private readonly text: string) {}

  after(i: number): number {
    if (i >= this.from && i <= this.end) return this.end;
    let j = i;
    while (j < this.text.length && this.text.charCodeAt(j) !== 10 && this.text.charCodeAt(j) !== 13) j++;
    this.from = i;
    this.end = j;
    return j;
  }
}

/** Past white space and comments, as a reader's lexer goes to its next token. */
function skipForward(text: string, i: number, lines: LineEnds): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWhite(c)) i++;
    else if (c === 0x25) i = lines.after(i);
    else break;
  }
  return i;
}

/** `word` at `at`, as a whole keyword (nothing regular right after it). */
const startsKeyword = (text: string, at: number, word: string) =>
  text.startsWith(word, at) && !isRegular(text.charCodeAt(at + word.length));

export function isSafePdf(data: Uint8Array): boolean {
  try {
    new PdfReader(Buffer.from(data.buffer, data.byteOffset, data.byteLength)).check();
    return true;
  } catch {
    // Refused, or a file this reading could not follow: refused as well.
    return false;
  }
}
