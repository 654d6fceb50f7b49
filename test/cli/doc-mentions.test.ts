// Every `appimage-keeper <command> --flag` that README.md, CONTRIBUTING.md and docs/*.md show must
// exist: the commands and flags are read from the program's own --help, so a renamed flag fails here.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { runCli } from '../../src/main.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The --help text of `args` (run in-process). */
async function help(args: string[]): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (b: Buffer) => (text += b.toString('utf8')));
  await runCli({
    argv: [...args, '--help'],
    env: { ...process.env, NO_COLOR: '1' },
    stdout,
    stderr: new PassThrough(),
  });
  return text;
}

/** Flags on help lines that start with a flag (option lists), never flags named in descriptions. */
function flagsOf(helpText: string): Set<string> {
  const flags = new Set<string>();
  for (const line of helpText.split('\n')) {
    const m = /^\s+(-[^\s].*?)(?:\s{2,}|$)/.exec(line);
    if (!m?.[1]) continue;
    for (const f of m[1].matchAll(/(?:^|[\s,])(--?[a-zA-Z][\w-]*)/g)) if (f[1]) flags.add(f[1]);
  }
  return flags;
}

function commandsOf(rootHelp: string): string[] {
  const section = rootHelp.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] ?? '');
}

/**
 * Code the docs show: fenced blocks line by line, and inline code spans. In a usage block (one that
 * opens with `appimage-keeper [...] <command>`), the indented lines below are commands too.
 */
function codeSnippets(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  let usage = false;
  let first = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      usage = false;
      first = fenced;
      continue;
    }
    if (fenced && first) usage = /^appimage-keeper .*<command>/.test(line);
    if (fenced && usage && !first && /^ {2}[a-z]/.test(line)) out.push(`appimage-keeper ${line.trim()}`);
    else if (fenced) out.push(line);
    first = false;
    if (!fenced) for (const m of line.matchAll(/`([^`]+)`/g)) if (m[1]) out.push(m[1]);
  }
  return out;
}

interface Mention {
  file: string;
  text: string;
  command: string;
  flags: string[];
}

const GLOBAL_WITH_VALUE = new Set(['--config-dir']);
const STOP = /^(#|\||\|\||&&|;|>|2>|<|\))/;

/** `appimage-keeper [globals] <command> [args] [--flags]` mentions in one snippet. */
function mentionsIn(file: string, snippet: string): Mention[] {
  const found: Mention[] = [];
  for (const m of snippet.matchAll(/(?:^|[\s$(])appimage-keeper((?:\s+[^\s]+)*)/g)) {
    const tokens = (m[1] ?? '').trim().split(/\s+/);
    const flags: string[] = [];
    let command: string | undefined;
    for (let i = 0; i < tokens.length; i++) {
      const raw = tokens[i] ?? '';
      // `[global flags]`, `[APP...]`: a bracketed word that is not a flag is a placeholder.
      if (raw.startsWith('[') && !raw.startsWith('[-')) continue;
      const t = raw.replace(/^\[/, '');
      if (t === '' || STOP.test(t) || t === 'appimage-keeper') break;
      // After `--` every word is an argument, however it starts (`add -- -rf`).
      if (t === '--') break;
      if (t.startsWith('-')) {
        const flag = t.replace(/[=\]),.].*$/, '');
        if (/^--?[a-zA-Z][\w-]*$/.test(flag)) flags.push(flag);
        if (GLOBAL_WITH_VALUE.has(flag) && !t.includes('=')) i++;
        continue;
      }
      if (command === undefined) {
        // `<command>`, `[APP...]`, `APP`: a placeholder, not a command name.
        if (!/^[a-z][a-z-]*$/.test(t)) break;
        command = t;
      }
    }
    if (command !== undefined || flags.length) {
      found.push({ file, text: m[0].trim(), command: command ?? '', flags });
    }
  }
  return found;
}

void describe('docs mention only commands and flags that exist', () => {
  void test('README.md, CONTRIBUTING.md and docs/*.md', async () => {
    const rootHelp = await help([]);
    const commands = commandsOf(rootHelp);
    assert.ok(commands.includes('update') && commands.includes('check'), rootHelp);
    const globals = flagsOf(rootHelp.split(/^Commands:$/m)[0] ?? '');
    assert.ok(globals.has('--json') && globals.has('--quiet'), rootHelp);
    const commandFlags = new Map<string, Set<string>>();
    for (const c of commands) commandFlags.set(c, flagsOf(await help([c])));

    const docs = (await readdir(join(ROOT, 'docs')))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f));
    const mentions: Mention[] = [];
    for (const file of ['README.md', 'CONTRIBUTING.md', ...docs]) {
      const text = await readFile(join(ROOT, file), 'utf8');
      for (const s of codeSnippets(text)) mentions.push(...mentionsIn(file, s));
    }
    assert.ok(mentions.length > 20, `only ${mentions.length} mentions found: the parser is broken`);
    const problems: string[] = [];
    for (const m of mentions) {
      const own = m.command === '' ? new Set<string>() : commandFlags.get(m.command);
      if (own === undefined) {
        problems.push(`${m.file}: \`${m.text}\`: no command "${m.command}"`);
        continue;
      }
      for (const f of m.flags) {
        if (!own.has(f) && !globals.has(f)) problems.push(`${m.file}: \`${m.text}\`: no flag ${f}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  void test('the parser sees a made-up flag and a made-up command', () => {
    const [flag] = mentionsIn('x.md', 'appimage-keeper --quiet update --frobnicate APP # note --not-this');
    assert.deepEqual(flag, {
      file: 'x.md',
      text: 'appimage-keeper --quiet update --frobnicate APP # note --not-this',
      command: 'update',
      flags: ['--quiet', '--frobnicate'],
    });
    assert.equal(mentionsIn('x.md', 'appimage-keeper frobnicate')[0]?.command, 'frobnicate');
    assert.deepEqual(mentionsIn('x.md', 'appimage-keeper <command>'), []);
    const usage = codeSnippets(
      '```\nappimage-keeper [--json] <command>\n  check [APP...] [--exit-code]\n```\n',
    );
    assert.deepEqual(
      usage.flatMap((u) => mentionsIn('x.md', u)).map((m) => [m.command, m.flags]),
      [
        ['', ['--json']],
        ['check', ['--exit-code']],
      ],
    );
  });
});
