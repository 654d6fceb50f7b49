import type * as Yaml from 'yaml';
import type { Document, LineCounter, Scalar } from 'yaml';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { readSmallFileSync } from '../core/small-file.js';

/** A parsed YAML file that still knows where every key and value came from. */
export interface YamlFile {
  file: string;
  data: unknown;
  doc: Document;
  lineCounter: LineCounter;
  /** The source text, to position problems inside a scalar value. */
  text: string;
}

type YamlLibrary = typeof Yaml;

// The yaml library is most of the config layer's code and a valid recipe in plain YAML never needs
// it (plain-yaml.ts): it is loaded by the first full parse. A document, and so every position,
// exists only after that.
let library: YamlLibrary | undefined;

async function yamlLibrary(): Promise<YamlLibrary> {
  // A CommonJS package: bundled, its dynamic import has only the default export.
  const mod = (await import('yaml')) as YamlLibrary & { default?: YamlLibrary };
  library ??= mod.default ?? mod;
  return library;
}

function loadedLibrary(): YamlLibrary {
  if (!library) throw new Error('a YAML document without the yaml library');
  return library;
}

/** Thrown by a YamlFile read without its document when something asks for a position in it. */
export class NeedsDocument extends Error {}

/**
 * A YamlFile for `data` already read from `text` by plain-yaml.ts, without the library's document:
 * asking for a position throws NeedsDocument (the caller then parses the file in full).
 */
export function documentlessYamlFile(file: string, text: string, data: unknown): YamlFile {
  return {
    file,
    data,
    text,
    get doc(): Document {
      throw new NeedsDocument(file);
    },
    get lineCounter(): LineCounter {
      throw new NeedsDocument(file);
    },
  };
}

/** Parses YAML text; syntax errors become positioned ConfigErrors. */
export async function parseYamlText(file: string, text: string): Promise<YamlFile> {
  const { LineCounter, parseDocument } = await yamlLibrary();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const issues: ConfigIssue[] = doc.errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    return { file, line: pos.line, col: pos.col, message: yamlMessage(e.message) };
  });
  if (issues.length) throw new ConfigError(issues);
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  return { file, data: data ?? {}, doc, lineCounter, text };
}

/** A recipe or config.yml larger than this is surely something else: refused before it is read. */
export const MAX_YAML_BYTES = 1 << 20;

function positioned(file: string, message: string): ConfigError {
  return new ConfigError([{ file, line: 1, col: 1, message }]);
}

/** Reads and parses a YAML file from disk (a regular file of at most MAX_YAML_BYTES). */
export async function readYamlFile(file: string): Promise<YamlFile> {
  // Synchronous (see readSmallFileSync): 200 recipes read through the thread pool left about 40 ms
  // of idle start-up, measured.
  const read = readSmallFileSync(file, MAX_YAML_BYTES);
  if (read.kind === 'not-regular') throw positioned(file, 'not a regular file');
  if (read.kind === 'too-large')
    throw positioned(file, `larger than ${MAX_YAML_BYTES >> 10} KiB; this is not a recipe or config file`);
  return parseYamlText(file, read.text);
}

// The yaml library appends a code frame to some messages; keep the first line only.
function yamlMessage(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/** Where to point inside the node at a path. */
export interface PositionOptions {
  /** Locate the key of the last segment instead of its value (for unknown keys). */
  key?: boolean;
  /** A character offset inside the scalar string value (e.g. the bad part of a regex). */
  offset?: number | undefined;
}

/**
 * Position of the node at `path`. With `key: true` the key of the last segment is located
 * (for unknown keys); a path that does not exist falls back to its deepest existing parent.
 */
export function positionOf(
  y: YamlFile,
  path: readonly PropertyKey[],
  options: PositionOptions = {},
): { line: number; col: number } {
  // The document first: a file read without one throws NeedsDocument here.
  let node: unknown = y.doc.contents;
  const { isMap, isNode, isScalar, isSeq } = loadedLibrary();
  let best: unknown = y.doc.contents;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      if (last && options.key) {
        best = pair.key;
        break;
      }
      node = pair.value;
      best = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item: unknown = node.items[seg];
      if (!item) break;
      node = item;
      best = item;
    } else {
      break;
    }
  }
  const range = isNode(best) ? best.range : undefined;
  let offset = range ? range[0] : 0;
  if (range && options.offset !== undefined && isScalar(best) && typeof best.value === 'string')
    offset += sourceOffset(y.text.slice(range[0], range[1]), best.type, options.offset);
  const pos = y.lineCounter.linePos(offset);
  return { line: pos.line, col: pos.col };
}

// Maps an offset in a scalar's value to its offset in the source text. Escapes in quoted scalars
// take more source characters than they yield; block and folded scalars fall back to their start.
function sourceOffset(raw: string, type: Scalar['type'], valueOffset: number): number {
  const { Scalar } = loadedLibrary();
  if (type === Scalar.PLAIN) return valueOffset <= raw.length ? valueOffset : 0;
  if (type !== Scalar.QUOTE_DOUBLE && type !== Scalar.QUOTE_SINGLE) return 0;
  let src = 1;
  for (let v = 0; v < valueOffset; v++) {
    const c = raw[src];
    if (c === undefined || c === '\n') return 0;
    if (type === Scalar.QUOTE_SINGLE) src += c === "'" ? 2 : 1;
    else if (c !== '\\') src += 1;
    else {
      const e = raw[src + 1];
      src += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    }
  }
  return src;
}

/** Builds a positioned issue for `path` in a YAML file. */
export function issueAt(
  y: YamlFile,
  path: readonly PropertyKey[],
  message: string,
  options: PositionOptions & { hint?: string | undefined } = {},
): ConfigIssue {
  const pos = positionOf(y, path, options);
  return { file: y.file, line: pos.line, col: pos.col, message, hint: options.hint };
}
