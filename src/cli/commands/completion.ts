import { UsageError } from '../../core/errors.js';
import type { CommandResult } from '../result.js';

const COMMANDS = [
  'init',
  'validate',
  'list',
  'info',
  'edit',
  'check',
  'update',
  'remove',
  'rollback',
  'unhold',
  'schedule',
  'doctor',
  'self-update',
  'adopt',
  'add',
  'schema',
  'completion',
];
const APP_COMMANDS = ['validate', 'info', 'edit', 'check', 'update', 'remove', 'rollback', 'unhold'];
const GLOBAL_FLAGS = ['--config-dir', '--json', '--no-color', '--quiet', '--verbose', '--help', '--version'];

function bash(): string {
  return `# appimage-keeper bash completion. Install: appimage-keeper completion bash > ~/.local/share/bash-completion/completions/appimage-keeper
_appimage_keeper() {
  local cur prev cmd i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --config-dir) ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ "$prev" == "--config-dir" ]]; then COMPREPLY=($(compgen -d -- "$cur")); return; fi
  if [[ -z "$cmd" ]]; then COMPREPLY=($(compgen -W "${COMMANDS.join(' ')} ${GLOBAL_FLAGS.join(' ')}" -- "$cur")); return; fi
  case "$cmd" in
    ${APP_COMMANDS.join('|')})
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "--force --dry-run --show-all --self --purge --orphans" -- "$cur"));
      else COMPREPLY=($(compgen -W "$(appimage-keeper list --names 2>/dev/null)" -- "$cur")); fi ;;
    init) COMPREPLY=($(compgen -W "--global --app --strategy --force forge direct script" -- "$cur")) ;;
    adopt) if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "--scan --move --copy --in-place --name --yes --dry-run" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
    add) COMPREPLY=($(compgen -W "--name --install --dry-run" -- "$cur")) ;;
    schema) COMPREPLY=($(compgen -W "config recipe" -- "$cur")) ;;
    schedule) COMPREPLY=($(compgen -W "install remove status --every" -- "$cur")) ;;
    doctor) COMPREPLY=($(compgen -W "--online" -- "$cur")) ;;
    self-update) COMPREPLY=($(compgen -W "--repository --force" -- "$cur")) ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
  esac
}
complete -F _appimage_keeper appimage-keeper
`;
}

function zsh(): string {
  return `#compdef appimage-keeper
# appimage-keeper zsh completion. Install: appimage-keeper completion zsh > "\${fpath[1]}/_appimage-keeper"
_appimage_keeper() {
  local -a commands
  commands=(${COMMANDS.map((c) => `'${c}'`).join(' ')})
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "$words[2]" in
    ${APP_COMMANDS.join('|')}) compadd -- \${(f)"$(appimage-keeper list --names 2>/dev/null)"} ;;
    init) compadd -- --global --app --strategy --force forge direct script ;;
    adopt) _files; compadd -- --scan --move --copy --in-place --name --yes --dry-run ;;
    add) compadd -- --name --install --dry-run ;;
    schema) compadd -- config recipe ;;
    schedule) compadd -- install remove status --every ;;
    doctor) compadd -- --online ;;
    self-update) compadd -- --repository --force ;;
    completion) compadd -- bash zsh fish ;;
  esac
}
compdef _appimage_keeper appimage-keeper
`;
}

function fish(): string {
  const lines = [
    '# appimage-keeper fish completion. Install: appimage-keeper completion fish > ~/.config/fish/completions/appimage-keeper.fish',
    'complete -c appimage-keeper -f',
    `complete -c appimage-keeper -n __fish_use_subcommand -a "${COMMANDS.join(' ')}"`,
    `complete -c appimage-keeper -n "__fish_seen_subcommand_from ${APP_COMMANDS.join(' ')}" -a "(appimage-keeper list --names 2>/dev/null)"`,
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from schema" -a "config recipe"',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from completion" -a "bash zsh fish"',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from schedule" -a "install remove status"',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from schedule" -l every -r',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from doctor" -l online',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from adopt" -F',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from adopt" -l scan -r -F',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from adopt" -a "--move --copy --in-place --name --yes --dry-run"',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from add" -a "--name --install --dry-run"',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from self-update" -l repository -r',
    'complete -c appimage-keeper -n "__fish_seen_subcommand_from self-update" -l force',
    'complete -c appimage-keeper -l config-dir -r -F',
    'complete -c appimage-keeper -l json',
    'complete -c appimage-keeper -l no-color',
    'complete -c appimage-keeper -s q -l quiet',
    'complete -c appimage-keeper -s v -l verbose',
  ];
  return `${lines.join('\n')}\n`;
}

/** `completion bash|zsh|fish`: a script that completes commands and app names. */
export function completionCommand(shell: string | undefined): CommandResult {
  const scripts: Record<string, () => string> = { bash, zsh, fish };
  const make = shell ? scripts[shell] : undefined;
  if (!make)
    throw new UsageError('USAGE', `unknown shell "${shell ?? ''}"`, { hint: 'use bash, zsh or fish' });
  const script = make();
  return { exitCode: 0, json: { command: 'completion', shell, script }, human: script.trimEnd() };
}
