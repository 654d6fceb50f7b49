import type { FlagSpec } from '../commands/command-spec.js';

/** The program's own flags, accepted before or after any command. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  {
    flags: '--config-dir <dir>',
    description: 'configuration directory (default: $XDG_CONFIG_HOME/appimage-keeper)',
    values: 'dirs',
  },
  {
    flags: '--system',
    description: 'manage the apps of every user in /opt, /usr/local and /etc (root only)',
  },
  { flags: '--json', description: 'print one JSON document on stdout' },
  { flags: '--no-color', description: 'disable colours' },
  { flags: '-q, --quiet', description: 'print only results and errors' },
  { flags: '-v, --verbose', description: 'print more detail on stderr (alone: print the version)' },
];
