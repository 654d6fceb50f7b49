/**
 * A JSON document `{…, "<key>": [member, …], …}` read as a stream of chunks, one member of that
 * array at a time: a catalogue of 32 MiB parsed whole costs ten times that once every value is an
 * object, read member by member it costs its largest member. Only the array's boundaries are found
 * here; each member's text, and the rest of the document (its skeleton, the array left empty), are
 * parsed by the caller with parseJsonWithin, so the document is still JSON as a whole.
 */
import { JSON_CODE } from './bounded-json.js';

/** How the document is split. */
export interface MemberSplitOptions {
  /** The top-level key whose array is streamed (its first occurrence, spelt without escapes). */
  key: string;
  /** A longer member is not kept: `onMember` gets undefined for it. */
  maxMemberBytes: number;
  /** Most bytes kept of the rest of the document. */
  maxSkeletonBytes: number;
  /** Gets each member's text, or undefined when it was longer than `maxMemberBytes`. */
  onMember(text: string | undefined): void;
}

/** The document around the array, or why there is none to parse. */
export type Skeleton = { ok: true; text: string; found: boolean } | { ok: false; message: string };

const {
  quote: QUOTE,
  backslash: BACKSLASH,
  comma: COMMA,
  colon: COLON,
  openBrace: OPEN_BRACE,
  openBracket: OPEN_BRACKET,
  closeBrace: CLOSE_BRACE,
  closeBracket: CLOSE_BRACKET,
} = JSON_CODE;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Feed it chunks with `push`, then `end` for the skeleton. */
export class JsonMemberSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private topIsObject = false;
  // Skeleton state at depth 1: the last key read, and whether the value being read is our key's.
  private keyBytes: number[] = [];
  private readingKey = false;
  private expectKey = false;
  private lastKeyIsOurs = false;
  private valueIsOurs = false;
  private found = false;
  private inArray = false;
  // Inside the array: the member being read (bytes kept across chunks), and whether one has begun.
  private member: Buffer[] = [];
  private memberBytes = 0;
  private memberOpen = false;
  private memberTooLong = false;
  private afterComma = false;
  private skeleton: Buffer;
  private skeletonUsed = 0;
  private skeletonTooLong = false;
  private readonly key: Buffer;

  constructor(private readonly options: MemberSplitOptions) {
    this.key = Buffer.from(options.key);
    this.skeleton = Buffer.allocUnsafe(Math.min(options.maxSkeletonBytes, 4096));
  }

  /** Feeds the next chunk; members completed in it are handed over before it returns. */
  push(chunk: Buffer): void {
    let memberFrom = this.memberOpen ? 0 : -1;
    let skeletonFrom = this.inArray ? -1 : 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.readingKey) this.endKey();
        } else if (this.readingKey && this.keyBytes.length <= this.key.length) this.keyBytes.push(c);
        continue;
      }
      if (this.inArray && this.depth === 2) {
        // Between or at the end of the array's members.
        if (c === COMMA || c === CLOSE_BRACKET) {
          if (this.memberOpen) {
            this.keepMember(chunk, memberFrom, i);
            this.emitMember();
            memberFrom = -1;
          } else if (this.afterComma || c === COMMA) this.options.onMember(''); // `[,` or `,,` or `,]`: not JSON
          this.afterComma = c === COMMA;
          if (c === CLOSE_BRACKET) {
            this.depth = 1;
            this.inArray = false;
            skeletonFrom = i;
          }
          continue;
        }
        if (!this.memberOpen) {
          if (isSpace(c)) continue;
          this.memberOpen = true;
          memberFrom = i;
        }
      }
      if (c === QUOTE) {
        this.inString = true;
        if (!this.inArray && this.depth === 1 && this.topIsObject && this.expectKey) {
          this.readingKey = true;
          this.keyBytes = [];
        }
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (!this.started) this.topIsObject = c === OPEN_BRACE;
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
        else if (this.depth === 2 && c === OPEN_BRACKET && this.valueIsOurs && !this.found) {
          this.found = true;
          this.inArray = true;
          this.afterComma = false;
          this.keepSkeleton(chunk, skeletonFrom, i + 1);
          skeletonFrom = -1;
        }
        if (this.depth === 2) this.valueIsOurs = false;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.depth--;
      else if (this.depth === 1 && !this.inArray) this.atTopLevel(c);
      this.started ||= !isSpace(c);
    }
    if (this.memberOpen) this.keepMember(chunk, memberFrom, chunk.length);
    if (skeletonFrom >= 0) this.keepSkeleton(chunk, skeletonFrom, chunk.length);
  }

  /** Ends the stream: the skeleton's text (the array emptied), or why it cannot be JSON. */
  end(): Skeleton {
    if (this.inArray || this.inString || this.depth !== 0)
      return { ok: false, message: 'ends before its last bracket closes' };
    if (this.skeletonTooLong)
      return {
        ok: false,
        message: `holds more than ${this.options.maxSkeletonBytes} bytes outside its "${this.options.key}" array`,
      };
    return { ok: true, text: this.skeleton.toString('utf8', 0, this.skeletonUsed), found: this.found };
  }

  // A comma, a colon or a scalar's byte between the top level's members.
  private atTopLevel(c: number): void {
    if (c === COMMA) {
      this.expectKey = true;
      this.valueIsOurs = false;
    } else if (c === COLON) {
      this.valueIsOurs = this.lastKeyIsOurs;
      this.lastKeyIsOurs = false;
    } else if (!isSpace(c)) this.valueIsOurs = false;
  }

  private endKey(): void {
    this.readingKey = false;
    this.expectKey = false;
    this.lastKeyIsOurs =
      this.keyBytes.length === this.key.length && this.keyBytes.every((b, i) => b === this.key[i]);
  }

  private keepMember(chunk: Buffer, from: number, to: number): void {
    if (from < 0 || to <= from) return;
    this.memberBytes += to - from;
    if (this.memberBytes > this.options.maxMemberBytes) {
      this.memberTooLong = true;
      this.member = [];
      return;
    }
    // A copy: the chunk is the transport's and may be reused.
    this.member.push(Buffer.from(chunk.subarray(from, to)));
  }

  private emitMember(): void {
    const text = this.memberTooLong ? undefined : Buffer.concat(this.member).toString('utf8');
    this.member = [];
    this.memberBytes = 0;
    this.memberOpen = false;
    this.memberTooLong = false;
    this.options.onMember(text);
  }

  private keepSkeleton(chunk: Buffer, from: number, to: number): void {
    if (from < 0 || to <= from || this.skeletonTooLong) return;
    const n = to - from;
    if (this.skeletonUsed + n > this.options.maxSkeletonBytes) {
      this.skeletonTooLong = true;
      return;
    }
    if (this.skeletonUsed + n > this.skeleton.length) {
      const size = Math.min(
        this.options.maxSkeletonBytes,
        Math.max(this.skeleton.length * 2, this.skeletonUsed + n),
      );
      const bigger = Buffer.allocUnsafe(size);
      this.skeleton.copy(bigger, 0, 0, this.skeletonUsed);
      this.skeleton = bigger;
    }
    chunk.copy(this.skeleton, this.skeletonUsed, from, to);
    this.skeletonUsed += n;
  }
}
