import type { Command, CommanderError } from 'commander';
import { ExitCode } from '../core/errors.js';
import type { Invocation } from './invocation.js';
import type { CommandResult } from '../commands/result.js';
import { guardTerminal } from '../render/terminal-text.js';
import { suggestCommand } from './command-habits.js';

/**
 * What the program does when no subcommand matched: `help [command]`, an unknown command (with a
 * suggestion), a lone `-v` (the version, as npm does), or nothing at all (usage error: the help on
 * stderr, or one JSON document with --json instead of commander's "(outputHelp)").
 */
export function attachRootAction(program: Command, inv: Invocation, version: () => CommandResult): void {
  program.allowExcessArguments().action((_opts: unknown, cmd: Command) => {
    const [first, ...rest] = cmd.args;
    const known = program.commands.map((c) => c.name());
    let word = first;
    let after = rest;
    if (first === 'help') {
      // `help [command]`: commander's implicit help command, which a program action would swallow.
      const [topic] = rest;
      if (topic === undefined || topic === 'help') program.help();
      const sub = program.commands.find((c) => c.name() === topic);
      if (sub) sub.help();
      // `help nosuch` is the same usage error as `nosuch`, not the root help with exit 0.
      word = topic;
      after = rest.slice(1);
    }
    if (word !== undefined) {
      const near = suggestCommand(word, after, known);
      program.error(`error: unknown command '${word}'${near ? `\n(Did you mean ${near}?)` : ''}`, {
        code: 'commander.unknownCommand',
        exitCode: ExitCode.usage,
      });
    }
    if (cmd.opts<{ verbose?: boolean }>().verbose) {
      inv.setResult('version', version());
      return;
    }
    if (!inv.globals().json) inv.io.stderr.write(guardTerminal(program.helpInformation()));
    inv.setResult('appimage-keeper', {
      exitCode: ExitCode.usage,
      json: {
        command: 'appimage-keeper',
        error: {
          code: 'USAGE',
          message: 'no command given',
          hint: 'run appimage-keeper --help for the commands',
        },
      },
      human: '',
    });
  });
}

/**
 * A commander usage error as `{ message, hint? }`: commander appends its suggestion to the message
 * as `(Did you mean --force?)`; JSON readers get it in its own field.
 */
export function usageErrorJson(err: CommanderError): { code: string; message: string; hint?: string } {
  const text = err.message.replace(/^error: /, '');
  const m = /^([\s\S]*?)\s*\(Did you mean (.+)\?\)\s*$/.exec(text);
  if (!m) return { code: 'USAGE', message: text.trim() };
  return { code: 'USAGE', message: (m[1] ?? '').trim(), hint: `did you mean ${m[2] ?? ''}?` };
}
