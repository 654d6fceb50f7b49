/** `user`: one account's XDG folders (the default); `system`: the FHS folders shared by every account. */
export type Layout = 'user' | 'system';

/** Directories the tool reads and writes, resolved once per run from the environment. */
export interface Paths {
  layout: Layout;
  home: string;
  configDir: string;
  configFile: string;
  secretsFile: string;
  appsDir: string;
  stateDir: string;
  stateFile: string;
  lockFile: string;
  cacheDir: string;
  dataHome: string;
  /** `$XDG_DATA_DIRS` (absolute entries; default /usr/local/share, /usr/share): the system's entries. */
  dataDirs: string[];
  applicationsDir: string;
  iconsDir: string;
  /** Defaults of config.yml fields that this layout changes (none for `user`: fields.ts's apply). */
  fieldDefaults: Partial<Record<'storage_dir' | 'symlink_dir', string>>;
}
