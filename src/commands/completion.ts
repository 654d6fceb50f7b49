import { UsageError } from '../core/errors.js';
import type { CliModel, CommandModel, FlagModel } from './cli-model.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';

// Every script is generated from the registered commands (cli-model.ts), so a new command or flag is
// completed without touching this file. bash and zsh share one candidate function written in the
// common subset of both shells (zsh runs it with ksharrays, so arrays are 0-based as in bash).

function flagNames(flags: readonly FlagModel[]): string[] {
  return flags.flatMap((f) => [f.long, f.short].filter((n): n is string => n !== undefined));
}

function valueFlags(flags: readonly FlagModel[]): string[] {
  return flags.filter((f) => f.takesValue).flatMap((f) => [f.long, f.short].filter((n) => n !== undefined));
}

function words(list: readonly string[]): string {
  // Completion words are our own identifiers; quoting keeps the shell from reading anything else.
  return list.map((w) => w.replace(/[^A-Za-z0-9._+-]/g, '')).join(' ');
}

/** `--flag) mode=...; words="..." ;;` lines for flags whose value completes. */
function valueCases(flags: readonly FlagModel[], indent: string): string[] {
  const lines: string[] = [];
  for (const f of flags.filter((x) => x.takesValue)) {
    const names = [f.long, f.short].filter((n) => n !== undefined).join('|');
    if (f.values === 'dirs') lines.push(`${indent}${names}) _ak_mode=dirs; return ;;`);
    else if (f.values) lines.push(`${indent}${names}) _ak_words="${words(f.values)}"; return ;;`);
    else lines.push(`${indent}${names}) _ak_mode=none; return ;;`);
  }
  return lines;
}

function positionalCases(cmd: CommandModel): string[] {
  const lines: string[] = [];
  cmd.arguments.forEach((a, i) => {
    const pattern = a.variadic ? `*` : `${i}`;
    let value: string | undefined;
    if (cmd.takesApps) value = '$(_appimage_keeper_apps)';
    else if (cmd.takesCatalogueNames && i === 0) value = '$(_appimage_keeper_catalogue_names)';
    else if (a.choices) value = words(a.choices);
    if (value !== undefined) lines.push(`        ${pattern}) _ak_words="${value}" ;;`);
  });
  return lines;
}

function commandCase(cmd: CommandModel, model: CliModel): string[] {
  const own = words([...flagNames(cmd.flags), '--help']);
  const positional = positionalCases(cmd);
  return [
    `    ${cmd.name})`,
    '      case "$_ak_prev" in',
    ...valueCases(cmd.flags, '        '),
    '      esac',
    '      if [[ "$_ak_cur" == -* ]]; then',
    `        _ak_words="${own}"`,
    // Only when none of the command's own flags fits: the global flags, valid after a command too.
    `        [[ " $_ak_words" == *" $_ak_cur"* ]] || _ak_words="${words(flagNames(model.globalFlags))}"`,
    '        return',
    '      fi',
    ...(positional.length ? ['      case "$_ak_npos" in', ...positional, '      esac'] : []),
    '      ;;',
  ];
}

/** The candidate function shared by bash and zsh: sets `_ak_words` (or `_ak_mode=dirs`). */
function candidates(model: CliModel): string {
  const globalValueFlags = valueFlags(model.globalFlags);
  const commandValueFlags = [...new Set(model.commands.flatMap((c) => valueFlags(c.flags)))];
  const commands = model.commands.map((c) => c.name);
  const n = model.name;
  return [
    // App names come from the same configuration directory the command line names.
    '_appimage_keeper_apps() {',
    `  if [[ -n "$_ak_cfg" ]]; then ${n} --config-dir "$_ak_cfg" list --names 2>/dev/null`,
    `  else ${n} list --names 2>/dev/null; fi`,
    '}',
    // Catalogue names come from the cache only: `search --names` sends no request.
    '_appimage_keeper_catalogue_names() {',
    `  if [[ -n "$_ak_cfg" ]]; then ${n} --config-dir "$_ak_cfg" search --names 2>/dev/null`,
    `  else ${n} search --names 2>/dev/null; fi`,
    '}',
    '_appimage_keeper_candidates() {',
    '  local i w',
    '  _ak_words=""',
    '  _ak_mode=words',
    '  _ak_cur="${COMP_WORDS[COMP_CWORD]}"',
    '  _ak_prev=""',
    '  ((COMP_CWORD > 0)) && _ak_prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  _ak_cmd=""',
    '  _ak_cfg=""',
    '  _ak_npos=0',
    // Find the command after any global flags (and their values), then count its positionals.
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    if [[ -z "$_ak_cmd" ]]; then',
    '      case "$w" in',
    `        ${globalValueFlags.join('|') || '--none--'}) ((i++)); [[ "$w" == --config-dir ]] && _ak_cfg="\${COMP_WORDS[i]}" ;;`,
    '        -*) ;;',
    '        *) _ak_cmd="$w" ;;',
    '      esac',
    '    else',
    '      case "$w" in',
    `        ${[...new Set([...globalValueFlags, ...commandValueFlags])].join('|')}) ((i++)) ;;`,
    '        -*) ;;',
    '        *) ((_ak_npos++)) ;;',
    '      esac',
    '    fi',
    '  done',
    '  case "$_ak_prev" in',
    ...valueCases(model.globalFlags, '    '),
    '  esac',
    '  if [[ -z "$_ak_cmd" ]]; then',
    '    if [[ "$_ak_cur" == -* ]]; then',
    `      _ak_words="${words(flagNames(model.globalFlags))} --help"`,
    '    else',
    `      _ak_words="${words(commands)}"`,
    '    fi',
    '    return',
    '  fi',
    '  case "$_ak_cmd" in',
    ...model.commands.flatMap((c) => commandCase(c, model)),
    '  esac',
    '}',
  ].join('\n');
}

function bash(model: CliModel): string {
  return `# ${model.name} bash completion. Install: ${model.name} completion bash > ~/.local/share/bash-completion/completions/${model.name}
${candidates(model)}
_appimage_keeper() {
  local _ak_words _ak_mode _ak_cur _ak_prev _ak_cmd _ak_cfg _ak_npos
  _appimage_keeper_candidates
  case "$_ak_mode" in
    dirs) COMPREPLY=($(compgen -d -- "$_ak_cur")) ;;
    none) COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$_ak_words" -- "$_ak_cur")) ;;
  esac
}
complete -F _appimage_keeper ${model.name}
`;
}

function zsh(model: CliModel): string {
  return `#compdef ${model.name}
# ${model.name} zsh completion. Install: ${model.name} completion zsh > "\${fpath[1]}/_${model.name}"
${candidates(model)}
_appimage_keeper_zsh() {
  setopt localoptions ksharrays
  local -a COMP_WORDS
  local COMP_CWORD _ak_words _ak_mode _ak_cur _ak_prev _ak_cmd _ak_cfg _ak_npos
  COMP_WORDS=("\${words[@]}")
  COMP_CWORD=$((CURRENT - 1))
  _appimage_keeper_candidates
  case "$_ak_mode" in
    dirs) _files -/ ;;
    none) return 1 ;;
    *) compadd -- \${=_ak_words} ;;
  esac
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _appimage_keeper_zsh "$@"
else
  compdef _appimage_keeper_zsh ${model.name}
fi
`;
}

function fish(model: CliModel): string {
  const n = model.name;
  const lines = [
    `# ${n} fish completion. Install: ${n} completion fish > ~/.config/fish/completions/${n}.fish`,
    `complete -c ${n} -f`,
    `complete -c ${n} -n __fish_use_subcommand -a "${words(model.commands.map((c) => c.name))}"`,
  ];
  const flagLine = (f: FlagModel, cond: string): string => {
    const parts = [`complete -c ${n}`];
    if (cond) parts.push(`-n "${cond}"`);
    if (f.short) parts.push(`-s ${f.short.replace(/^-/, '')}`);
    if (f.long) parts.push(`-l ${f.long.replace(/^--/, '')}`);
    if (f.values === 'dirs') parts.push('-r -F');
    else if (f.values) parts.push(`-r -a "${words(f.values)}"`);
    else if (f.takesValue) parts.push('-r');
    return parts.join(' ');
  };
  for (const c of model.commands) {
    const cond = `__fish_seen_subcommand_from ${c.name}`;
    if (c.takesApps) lines.push(`complete -c ${n} -n "${cond}" -a "(${n} list --names 2>/dev/null)"`);
    if (c.takesCatalogueNames)
      lines.push(`complete -c ${n} -n "${cond}" -a "(${n} search --names 2>/dev/null)"`);
    for (const a of c.arguments)
      if (a.choices) lines.push(`complete -c ${n} -n "${cond}" -a "${words(a.choices)}"`);
    for (const f of c.flags) lines.push(flagLine(f, cond));
  }
  for (const f of model.globalFlags) lines.push(flagLine(f, ''));
  return `${lines.join('\n')}\n`;
}

/** `completion bash|zsh|fish`: a script that completes commands, flags, their values and app names. */
export function completionCommand(shell: string | undefined, model: CliModel): CommandResult {
  const scripts: Record<string, (m: CliModel) => string> = { bash, zsh, fish };
  const make = shell ? scripts[shell] : undefined;
  if (!make)
    throw new UsageError('USAGE', `unknown shell "${shell ?? ''}"`, { hint: 'use bash, zsh or fish' });
  const script = make(model);
  return { exitCode: 0, json: { command: 'completion', shell, script }, human: script.trimEnd() };
}

/** `completion SHELL`: the shell's completion script, generated from the command line model. */
export const completion = defineCommand<[string], Record<string, never>>({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish)',
  arguments: [{ name: '<shell>', description: 'shell to complete', choices: ['bash', 'zsh', 'fish'] }],
  flags: [],
  examples: [
    ['appimage-keeper completion bash > ~/.local/share/bash-completion/completions/appimage-keeper', 'bash'],
    ['appimage-keeper completion zsh > "${fpath[1]}/_appimage-keeper"', 'zsh'],
    ['appimage-keeper completion fish > ~/.config/fish/completions/appimage-keeper.fish', 'fish'],
  ],
  handler: ({ model, args: [shell] }) => completionCommand(shell, model()),
});
