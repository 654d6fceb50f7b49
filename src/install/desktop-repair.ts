import {
  actionGroups,
  getGroup,
  getRaw,
  MAIN_GROUP,
  setRaw,
  setString,
  type DesktopEntry,
  type DesktopGroup,
} from '../appimage/desktop-entry.js';

/**
 * Makes an upstream desktop entry one that `desktop-file-validate` accepts, or says why it cannot be
 * installed. Upstream files are often sloppy (no `Type=`, unregistered categories, actions without
 * groups); installing them as they are gives menus an invalid file, which some desktops skip.
 * Only what the Desktop Entry specification (1.4, the version desktop-file-utils 0.26 validates)
 * requires is repaired; everything we drop or add is reported as a warning.
 */

/** Keys of the specification for type Application (1.4). 1.5's SingleMainWindow is refused by 0.26. */
const MAIN_KEYS = new Set([
  'Type',
  'Version',
  'Name',
  'GenericName',
  'NoDisplay',
  'Comment',
  'Icon',
  'Hidden',
  'OnlyShowIn',
  'NotShowIn',
  'DBusActivatable',
  'TryExec',
  'Exec',
  'Path',
  'Terminal',
  'Actions',
  'MimeType',
  'Categories',
  'Implements',
  'Keywords',
  'StartupNotify',
  'StartupWMClass',
  'PrefersNonDefaultGPU',
]);
const ACTION_KEYS = new Set(['Name', 'Icon', 'Exec']);
/** Keys whose value may be localized (`Name[de]=`); a localized variant of any other key is invalid. */
const LOCALIZED_KEYS = new Set(['Name', 'GenericName', 'Comment', 'Icon', 'Keywords']);
const BOOLEAN_KEYS = new Set([
  'NoDisplay',
  'Hidden',
  'DBusActivatable',
  'Terminal',
  'StartupNotify',
  'PrefersNonDefaultGPU',
]);
const VERSIONS = new Set(['1.0', '1.1', '1.2', '1.3', '1.4', '0.9.4', '0.9.3', '0.9.2', '0.9.1']);
const DESKTOPS = new Set(
  'GNOME GNOME-Classic GNOME-Flashback KDE LXDE LXQt MATE Razor ROX TDE Unity XFCE EDE Cinnamon Pantheon Budgie Enlightenment Old'.split(
    ' ',
  ),
);
/** Main and additional categories of the Desktop Menu Specification (reserved ones left out). */
const CATEGORIES = new Set(
  `AudioVideo Audio Video Development Education Game Graphics Network Office Science Settings System
  Utility Building Debugger IDE GUIDesigner Profiling RevisionControl Translation Calendar
  ContactManagement Database Dictionary Chart Email Finance FlowChart PDA ProjectManagement
  Presentation Spreadsheet WordProcessor 2DGraphics VectorGraphics RasterGraphics 3DGraphics Scanning
  OCR Photography Publishing Viewer TextTools DesktopSettings HardwareSettings Printing PackageManager
  Dialup InstantMessaging Chat IRCClient Feed FileTransfer HamRadio News P2P RemoteAccess Telephony
  TelephonyTools VideoConference WebBrowser WebDevelopment Midi Mixer Sequencer Tuner TV
  AudioVideoEditing Player Recorder DiscBurning ActionGame AdventureGame ArcadeGame BoardGame
  BlocksGame CardGame KidsGame LogicGame RolePlaying Shooter Simulation SportsGame StrategyGame Art
  Construction Music Languages ArtificialIntelligence Astronomy Biology Chemistry ComputerScience
  DataVisualization Economy Electricity Geography Geology Geoscience History Humanities
  ImageProcessing Literature Maps Math NumericalAnalysis MedicalSoftware Physics Robotics
  Spirituality Sports ParallelComputing Amusement Archiving Compression Electronics Emulator
  Engineering FileTools FileManager TerminalEmulator Filesystem Monitor Security Accessibility
  Calculator Clock TextEditor Documentation Adult Core KDE GNOME XFCE GTK Qt Motif Java ConsoleOnly`.split(
    /\s+/,
  ),
);
const MIME_RE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;
const ICON_EXT_RE = /\.(png|svg|svgz|xpm)$/i;

/** What repair decided: the entry is usable (maybe changed), or it must not be installed. */
export type RepairResult = { ok: true } | { ok: false; reason: string };

const isExtension = (key: string): boolean => key.startsWith('X-');

/** Drops keys and localized variants the group may not hold, and later duplicates of a key. */
function dropInvalidKeys(group: DesktopGroup, allowed: Set<string>, dropped: string[]): void {
  const seen = new Set<string>();
  const plain = new Set(
    group.lines.flatMap((l) => (l.kind === 'entry' && l.locale === undefined ? [l.key] : [])),
  );
  group.lines = group.lines.filter((line) => {
    if (line.kind !== 'entry') return true;
    const full = `${line.key}${line.locale !== undefined ? `[${line.locale}]` : ''}`;
    const keep =
      !seen.has(full) &&
      (isExtension(line.key) ||
        (allowed.has(line.key) &&
          (line.locale === undefined || (LOCALIZED_KEYS.has(line.key) && plain.has(line.key)))));
    seen.add(full);
    if (!keep) dropped.push(`[${group.name}] ${full}`);
    return keep;
  });
}

/** Keeps only the items of a `;` list that pass `ok`; drops the key when none is left. */
function filterList(
  group: DesktopGroup,
  key: string,
  ok: (item: string) => boolean,
  dropped: string[],
): void {
  const raw = getRaw(group, key);
  if (raw === undefined) return;
  const items = raw.split(';').filter((s) => s !== '');
  const kept = [...new Set(items.filter((i) => isExtension(i) || ok(i)))];
  for (const bad of items.filter((i) => !kept.includes(i)))
    dropped.push(`[${group.name}] ${key} value ${bad}`);
  if (kept.length === 0) removePlain(group, key);
  else if (kept.length !== items.length) setRaw(group, key, `${kept.join(';')};`);
}

function removePlain(group: DesktopGroup, key: string): void {
  group.lines = group.lines.filter((l) => l.kind !== 'entry' || l.key !== key);
}

function repairValues(group: DesktopGroup, dropped: string[]): void {
  for (const key of BOOLEAN_KEYS) {
    const v = getRaw(group, key);
    if (v !== undefined && v !== 'true' && v !== 'false') {
      removePlain(group, key);
      dropped.push(`[${group.name}] ${key}=${v}`);
    }
  }
  const version = getRaw(group, 'Version');
  if (version !== undefined && !VERSIONS.has(version)) {
    removePlain(group, 'Version');
    dropped.push(`[${group.name}] Version=${version}`);
  }
  filterList(group, 'Categories', (c) => CATEGORIES.has(c), dropped);
  filterList(group, 'OnlyShowIn', (d) => DESKTOPS.has(d), dropped);
  filterList(group, 'NotShowIn', (d) => DESKTOPS.has(d), dropped);
  filterList(group, 'MimeType', (m) => MIME_RE.test(m), dropped);
  const icon = getRaw(group, 'Icon');
  // An icon name (not a path) must not carry an extension.
  if (icon !== undefined && !icon.startsWith('/') && ICON_EXT_RE.test(icon)) {
    setRaw(group, 'Icon', icon.replace(ICON_EXT_RE, ''));
  }
}

/** Keeps the actions that are listed and have a valid group; drops the rest of both. */
function repairActions(entry: DesktopEntry, main: DesktopGroup, dropped: string[]): void {
  const usable = (g: DesktopGroup): boolean =>
    getRaw(g, 'Name') !== undefined && getRaw(g, 'Exec') !== undefined;
  const groups = new Map(actionGroups(entry).map((g) => [g.name.slice('Desktop Action '.length), g]));
  const listed = (getRaw(main, 'Actions') ?? '').split(';').filter((s) => s !== '');
  const kept = [...new Set(listed.filter((id) => groups.get(id) && usable(groups.get(id) as DesktopGroup)))];
  for (const id of listed.filter((i) => !kept.includes(i))) dropped.push(`action ${id}`);
  if (kept.length === 0) removePlain(main, 'Actions');
  else if (kept.length !== listed.length) setRaw(main, 'Actions', `${kept.join(';')};`);
  entry.groups = entry.groups.filter((g) => {
    if (g === main || isExtension(g.name)) return true;
    const id = g.name.startsWith('Desktop Action ') ? g.name.slice('Desktop Action '.length) : undefined;
    if (id !== undefined && kept.includes(id)) return true;
    dropped.push(`group [${g.name}]`);
    return false;
  });
}

/**
 * Repairs what the Desktop Entry specification requires so the written file validates: a missing
 * `Type` becomes `Application`, a missing `Name` the app name; keys, values, actions and groups the
 * specification does not allow are dropped. An entry of another type (Link, Directory) cannot
 * launch the AppImage and is refused. Warnings say what changed.
 */
export function repairDesktopEntry(entry: DesktopEntry, appName: string, warnings: string[]): RepairResult {
  const main = getGroup(entry, MAIN_GROUP);
  if (!main) return { ok: false, reason: 'the desktop file has no [Desktop Entry] group' };
  const type = getRaw(main, 'Type');
  if (type !== undefined && type !== 'Application') {
    return { ok: false, reason: `its desktop entry is Type=${type}, not an application` };
  }
  // Added first: a localized Name[xx] is only valid beside a plain Name.
  if (type === undefined) {
    setString(main, 'Type', 'Application');
    warnings.push('the desktop entry had no Type; added Type=Application');
  }
  if (getRaw(main, 'Name') === undefined) {
    setString(main, 'Name', appName);
    warnings.push(`the desktop entry had no Name; added Name=${appName}`);
  }
  const dropped: string[] = [];
  dropInvalidKeys(main, MAIN_KEYS, dropped);
  for (const action of actionGroups(entry)) {
    dropInvalidKeys(action, ACTION_KEYS, dropped);
    repairValues(action, dropped);
  }
  repairValues(main, dropped);
  repairActions(entry, main, dropped);
  if (dropped.length > 0) {
    const shown = dropped.slice(0, 10).join(', ');
    warnings.push(
      `dropped what the Desktop Entry specification does not allow: ${shown}${dropped.length > 10 ? `, and ${dropped.length - 10} more` : ''}`,
    );
  }
  return { ok: true };
}
