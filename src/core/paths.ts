/** Directories the tool reads and writes, resolved once per run from the environment. */
export interface Paths {
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
}
