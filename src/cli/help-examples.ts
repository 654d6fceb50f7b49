import type { Command } from 'commander';

type Example = readonly [command: string, what: string];

// Two or three per command, shown by `--help`, docs/cli.md and the man page. A command without an
// entry fails the CLI reference test, so a new command cannot ship without examples.
const EXAMPLES: Record<string, readonly Example[]> = {
  'appimage-keeper': [
    ['appimage-keeper init --app obsidian --strategy forge', 'scaffold a recipe'],
    ['appimage-keeper update', 'install or update every app'],
    ['appimage-keeper schedule install', 'update daily with a systemd user timer'],
  ],
  init: [
    ['appimage-keeper init --global', 'write config.yml with every field and its default'],
    ['appimage-keeper init --app obsidian --strategy forge', 'scaffold apps/obsidian/obsidian.yml'],
    ['appimage-keeper init --app tool --strategy script', 'scaffold a recipe and its resolver.sh'],
  ],
  validate: [
    ['appimage-keeper validate', 'check config.yml, secrets.yml and every recipe'],
    ['appimage-keeper validate obsidian', 'check one recipe'],
    ['appimage-keeper --json validate', 'the same as one JSON document'],
  ],
  list: [
    ['appimage-keeper list', 'apps, versions, files and desktop integration, fitted to the terminal'],
    ['appimage-keeper list --wide', 'every column and full paths, even if lines wrap'],
    ['appimage-keeper --json list', 'the same as one JSON document'],
  ],
  info: [
    ['appimage-keeper info obsidian', 'settings (and where each came from), state, last error'],
    ['appimage-keeper --json info obsidian', 'the same as one JSON document'],
  ],
  edit: [
    ['appimage-keeper edit obsidian', 'open the recipe in $VISUAL or $EDITOR and validate it on save'],
    [
      'appimage-keeper --config-dir ~/dotfiles/appimage-keeper edit obsidian',
      'a recipe of another configuration',
    ],
  ],
  check: [
    ['appimage-keeper check', 'which apps have a newer release'],
    ['appimage-keeper check obsidian', 'check one app'],
    ['appimage-keeper check --exit-code', 'exit 10 when an update is available (for scripts)'],
  ],
  update: [
    ['appimage-keeper update', 'update every app that has a new release'],
    ['appimage-keeper update --dry-run obsidian', 'show what would be downloaded'],
    ['appimage-keeper -q update', 'print nothing when nothing changed (for timers)'],
  ],
  remove: [
    ['appimage-keeper remove obsidian', 'uninstall an app, keep its recipe'],
    ['appimage-keeper remove --purge obsidian', 'uninstall it and delete the recipe'],
    ['appimage-keeper remove --orphans', 'remove apps whose recipe is gone'],
  ],
  rollback: [
    ['appimage-keeper rollback obsidian', 'restore the previous version and hold it'],
    ['appimage-keeper unhold obsidian', 'let update handle it again'],
  ],
  unhold: [
    ['appimage-keeper unhold obsidian', 'release one app held after a rollback'],
    ['appimage-keeper update --force obsidian', 'or reinstall the latest, which also releases it'],
  ],
  schedule: [
    ['appimage-keeper schedule install', 'run update daily'],
    ['appimage-keeper schedule install --every 6h', 'run update every six hours'],
    ['appimage-keeper schedule status', 'show the timer and the last run'],
  ],
  doctor: [
    ['appimage-keeper doctor', 'check directories, config, state and tools'],
    ['appimage-keeper doctor --online', 'also check the hub API, the token and the rate limit'],
  ],
  'self-update': [
    ['appimage-keeper self-update', 'update the standalone executable'],
    ['appimage-keeper self-update --rollback', 'put back the executable it replaced'],
    ['appimage-keeper update --self', 'update the apps, then appimage-keeper'],
  ],
  adopt: [
    ['appimage-keeper adopt ~/Downloads/Obsidian-1.5.3.AppImage', 'manage an AppImage you already have'],
    [
      'appimage-keeper adopt ~/Downloads/Obsidian-1.5.3.AppImage --url https://github.com/obsidianmd/obsidian-releases',
      'and name its source when the file carries none',
    ],
    ['appimage-keeper adopt --scan ~/Applications', 'plan the adoption of a whole folder'],
  ],
  add: [
    [
      'appimage-keeper add https://github.com/obsidianmd/obsidian-releases',
      'write a recipe for a repository',
    ],
    ['appimage-keeper add https://example.org/tool.AppImage --name tool', 'a direct-download recipe'],
    ['appimage-keeper add https://github.com/owner/repo --install', 'write it and install the app'],
  ],
  schema: [
    ['appimage-keeper schema config > config.schema.json', 'JSON Schema of config.yml'],
    ['appimage-keeper schema recipe', 'JSON Schema of a recipe'],
  ],
  completion: [
    ['appimage-keeper completion bash > ~/.local/share/bash-completion/completions/appimage-keeper', 'bash'],
    ['appimage-keeper completion zsh > "${fpath[1]}/_appimage-keeper"', 'zsh'],
    ['appimage-keeper completion fish > ~/.config/fish/completions/appimage-keeper.fish', 'fish'],
  ],
  version: [
    ['appimage-keeper version', 'print the version'],
    ['appimage-keeper --json version', 'the same as one JSON document'],
  ],
};

/** The examples of a command (`appimage-keeper` for the program itself); empty when it has none. */
export function examplesOf(command: string): readonly Example[] {
  return EXAMPLES[command] ?? [];
}

function examplesText(command: string): string {
  const examples = examplesOf(command);
  if (examples.length === 0) return '';
  const lines = examples.flatMap(([cmd, what]) => [`  # ${what}`, `  $ ${cmd}`]);
  return `\nExamples:\n${lines.join('\n')}\n`;
}

/**
 * Final touch on the registered program: every subcommand's help lists the global flags and ends
 * with its examples. Runs after all commands are registered, so new commands get it too.
 */
export function finishHelp(program: Command): void {
  program.addHelpText('after', examplesText(program.name()));
  for (const cmd of program.commands) {
    cmd.configureHelp({ ...cmd.configureHelp(), showGlobalOptions: true });
    cmd.addHelpText('after', examplesText(cmd.name()));
  }
}
