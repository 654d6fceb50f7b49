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

// The yaml library is most of the config layer's code and a file found in the validated cache
// (validated-cache.ts) never needs it: it is loaded by the first parse.
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
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    // The library's only refusal here: aliases expanding past the count (a billion laughs).
    throw positioned(file, `aliases expand too far (a YAML alias bomb?); refused before expanding them`);
  }
  return { file, data: data ?? {}, doc, lineCounter, text };
}

/** How many nodes one alias may stand for: a recipe's few aliases stay far below it, a bomb does not. */
const MAX_ALIAS_COUNT = 100;

/** A recipe or config.yml larger than this is surely something else: refused before it is read. */
export const MAX_YAML_BYTES = 1 << 20;

function positioned(file: string, message: string): ConfigError {
  return new ConfigError([{ file, line: 1, col: 1, message }]);
}

/**
 * The text of a YAML file on disk (a regular file of at most MAX_YAML_BYTES); a missing file
 * keeps its ENOENT, anything else wrong is a ConfigError at 1:1.
 */
export function readYamlText(file: string): string {
  // Synchronous (see readSmallFileSync): 200 recipes read through the thread pool left about 40 ms
  // of idle start-up, measured.
  const read = readSmallFileSync(file, MAX_YAML_BYTES);
  if (read.kind === 'not-regular') throw positioned(file, 'not a regular file');
  if (read.kind === 'too-large')
    throw positioned(file, `larger than ${MAX_YAML_BYTES >> 10} KiB; this is not a recipe or config file`);
  return read.text;
}

/** Reads and parses a YAML file from disk (a regular file of at most MAX_YAML_BYTES). */
export async function readYamlFile(file: string): Promise<YamlFile> {
  return parseYamlText(file, readYamlText(file));
}

// The yaml library appends a code frame to some messages; keep the first line only.
function yamlMessage(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * The source offsets of the values of a top-level mapping's keys that `pick` names (by its
 * canonical key: `pick(spelling)`), for the validated cache to find a secret's value in the text.
 */
export function topLevelValueRanges(
  y: YamlFile,
  pick: (spelling: string) => string | undefined,
): Record<string, readonly [number, number] | undefined> {
  const { isMap, isNode, isScalar } = loadedLibrary();
  const out: Record<string, readonly [number, number] | undefined> = {};
  const root = y.doc.contents;
  if (!isMap(root)) return out;
  for (const pair of root.items) {
    if (!isScalar(pair.key)) continue;
    const key = pick(String(pair.key.value));
    if (key === undefined) continue;
    const range = isNode(pair.value) ? pair.value.range : undefined;
    out[key] = range ? [range[0], range[1]] : undefined;
  }
  return out;
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
