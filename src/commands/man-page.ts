/**
 * The man page `appimage-keeper(1)`, rendered from the same command model as --help and
 * docs/cli.md: the npm build writes it into dist/ (scripts/cli-docs.ts), and the standalone
 * executable, which has no files beside it, writes it itself (`schedule install`).
 */
import type { CliModel, FlagModel } from './cli-model.js';

/** The exit codes, as docs/cli.md and the man page list them. */
export const EXIT_CODES: readonly (readonly [string, string])[] = [
  ['0', 'success'],
  ['1', 'at least one app failed; the others were still handled'],
  ['2', 'usage error: unknown command or flag, bad configuration, unknown app name'],
  ['3', 'another appimage-keeper run holds the lock'],
  ['10', '`check --exit-code` only: an update is available for an app that is not held'],
  [
    '75',
    'no network at all: every app is `offline` and nothing is recorded (the timer counts it as success)',
  ],
  ['130', 'interrupted by Ctrl-C (SIGINT); 143 for SIGTERM'],
  [
    '141',
    'the reader of stdout or stderr closed (`| head -1`) before the command finished; once it had finished, its own code',
  ],
];

/** Escapes text for roff: backslashes, and a leading dot or quote that roff would read as a request. */
function roff(text: string): string {
  return text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^[.']/gm, '\\&$&');
}

function manFlags(flags: readonly FlagModel[]): string[] {
  return flags.flatMap((f) => [
    '.TP',
    `.B ${roff(f.flags)}`,
    roff(`${f.description}${f.choices ? ` (${f.choices.join(', ')})` : ''}`),
  ]);
}

/** The man page `appimage-keeper(1)` in roff (man macros). */
export function renderManPage(model: CliModel): string {
  const n = model.name;
  const lines = [
    `.TH ${n.toUpperCase()} 1 "" "${n} ${model.version}" "User Commands"`,
    '.SH NAME',
    `${n} \\- ${roff(model.description)}`,
    '.SH SYNOPSIS',
    `.B ${n}`,
    '[\\fIglobal flags\\fR] \\fICOMMAND\\fR [\\fIflags\\fR] [\\fIarguments\\fR]',
    '.SH GLOBAL FLAGS',
    ...manFlags(model.globalFlags),
    '.SH COMMANDS',
  ];
  for (const c of model.commands) {
    lines.push('.SS', `.B ${roff(c.usage)}`, '.PP', `${roff(c.description)}.`);
    for (const a of c.arguments) {
      const choices = a.choices ? ` (${a.choices.join(', ')})` : '';
      lines.push(
        '.TP',
        `.I ${roff(a.name)}${a.variadic ? '...' : ''}`,
        `${roff(a.description)}${roff(choices)}`,
      );
    }
    lines.push(...manFlags(c.flags));
    lines.push('.PP', 'Examples:', '.RS', '.nf');
    for (const [command, what] of c.examples) lines.push(roff(`# ${what}`), roff(command));
    lines.push('.fi', '.RE');
  }
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_CODES) lines.push('.TP', `.B ${code}`, roff(meaning.replace(/`/g, '')));
  lines.push(
    '.SH FILES',
    '.TP',
    '.I ~/.config/appimage\\-keeper/config.yml',
    'global configuration ($XDG_CONFIG_HOME)',
    '.TP',
    '.I ~/.config/appimage\\-keeper/apps/',
    'one recipe per app',
    '.TP',
    '.I ~/.local/state/appimage\\-keeper/',
    'state, lock and metadata cache ($XDG_STATE_HOME)',
    '.SH SEE ALSO',
    'The configuration and command references in the package’s docs/ folder.',
    '',
  );
  return lines.join('\n');
}
