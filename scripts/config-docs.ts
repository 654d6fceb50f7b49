// Generates docs/configuration.md from the field tables in src/config. `--check` exits 1 when the
// committed file differs, so the reference cannot drift from the code.
import { format } from 'prettier';
import { writeOrCheckDoc } from './generated-doc.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GLOBAL_FIELDS, type FieldSpec } from '../src/config/fields.js';
import { directStrategySchema, forgeStrategySchema, scriptStrategySchema } from '../src/config/field-kit.js';
import { RECIPE_FIELDS } from '../src/config/recipe-fields.js';

/** Where the generated reference lives, relative to the repository root. */
export const DOC_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md');

// The strategy schemas carry types; what each field means is documented here, next to the generator,
// and a field without an entry fails generation so a new field cannot go undocumented.
const STRATEGY_DOCS: Record<string, Record<string, string>> = {
  forge: {
    strategy: '`forge`.',
    repository:
      'Repository URL `https://<host>/<owner>/<repo>` on the hub, the lab (nested groups allowed) or a Gitea/Forgejo host.',
    asset_match:
      'Glob against release asset names (case-sensitive). Without it and `asset_match_regex`, every `*.AppImage` asset (any letter case) is a candidate, narrowed by this machine’s architecture.',
    asset_match_regex:
      'Regular expression (RE2 syntax, as Rust’s `regex`) that must match the whole asset name, as `^(?:re)$`. Inline flags such as `(?i)` and POSIX classes inside brackets (`[[:digit:]]`) work; backreferences and lookaround are reported by `validate` at their position. With `asset_match` too, an asset must match both.',
    inner_asset_match:
      'Glob selecting the AppImage inside a ZIP asset. Without `/` it matches the entry’s file name, with `/` its whole path.',
    prerelease:
      'Also consider pre-releases (default `false`: the forge’s latest release); `only`: the newest pre-release.',
    tag: 'Follow this one literal tag (`continuous`, `nightly`) instead of the latest release; wins over `prerelease`.',
  },
  direct: {
    strategy: '`direct`.',
    url: 'http(s) URL that always serves the latest AppImage.',
    check_method: '`etag` or `last-modified`: the response header compared to detect a new file.',
  },
  script: {
    strategy: '`script`.',
    script_path:
      'Bash script, relative to the recipe’s folder (it must stay inside it). It prints two lines: the download URL, then the version.',
    timeout: 'Seconds before the script is killed (default 120, at most 3600).',
    script_env_token:
      '`true` passes `HUB_TOKEN`, `GITHUB_TOKEN` and `GH_TOKEN` from the environment to the script (default `false`: they are removed, so a script cannot leak the token by accident).',
  },
};

function code(v: unknown): string {
  if (v === undefined) return 'not set';
  return `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;
}

function cell(text: string): string {
  // `<name>` would be read as an HTML tag by Markdown renderers.
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');
}

function globalTable(fields: readonly FieldSpec[]): string[] {
  const rows = [
    '| Field | Type | Default | Per app | Aliases | Meaning |',
    '|---|---|---|---|---|---|',
    ...fields.map(
      (f) =>
        `| \`${f.key}\`${f.extension ? ' ¹' : ''} | ${cell(f.type)} | ${code(f.default)} | ${f.globalOnly ? 'no (config.yml only)' : 'yes'} | ${
          f.aliases.map((a) => `\`${a}\``).join(', ') || '—'
        } | ${cell(f.description)} |`,
    ),
  ];
  return rows;
}

function strategyTable(
  kind: string,
  shape: Record<string, { safeParse(v: unknown): { success: boolean } }>,
): string[] {
  const docs = STRATEGY_DOCS[kind] ?? {};
  const rows = ['| Field | Required | Meaning |', '|---|---|---|'];
  for (const key of Object.keys(shape)) {
    const text = docs[key];
    if (!text) throw new Error(`scripts/config-docs.ts: no description for strategy.${key} (${kind})`);
    // A field is optional exactly when its schema accepts "absent".
    const required = !shape[key]?.safeParse(undefined).success;
    const note = required ? 'yes' : 'no';
    rows.push(`| \`strategy.${key}\` | ${note} | ${cell(text)} |`);
  }
  for (const key of Object.keys(docs))
    if (!(key in shape))
      throw new Error(`scripts/config-docs.ts: strategy.${key} (${kind}) no longer exists`);
  return rows;
}

/** The whole reference as Markdown, formatted by prettier so `npm run lint` accepts it. */
export async function renderConfigDocs(): Promise<string> {
  return format(rawMarkdown(), { parser: 'markdown', filepath: DOC_PATH });
}

function rawMarkdown(): string {
  const recipeRows = [
    '| Field | Type | Required | Default | Meaning |',
    '|---|---|---|---|---|',
    ...RECIPE_FIELDS.map(
      (f) =>
        `| \`${f.key}\` | ${cell(f.type)} | ${f.required ? 'yes' : 'no'} | ${f.required ? '—' : code(f.default)} | ${cell(f.description)} |`,
    ),
  ];
  const lines = [
    '<!-- Generated by scripts/config-docs.ts from src/config/fields.ts and src/config/recipe-fields.ts. -->',
    '<!-- Do not edit by hand: run `npx tsx scripts/config-docs.ts`; the test suite runs it with --check. -->',
    '',
    '# Configuration reference',
    '',
    'appimage-keeper reads one global `config.yml`, an optional `secrets.yml`, and one recipe per app.',
    'All three are YAML. Unknown keys are errors with a "did you mean" hint; every problem is reported',
    'as `file:line:col`. `appimage-keeper validate` checks everything without touching the network, and',
    '`appimage-keeper schema config|recipe` prints JSON Schemas for editors (`init` writes them next to',
    '`config.yml` and references them with a `# yaml-language-server: $schema=` line).',
    '',
    '## File locations',
    '',
    '| What | Where |',
    '|---|---|',
    '| config directory | `$XDG_CONFIG_HOME/appimage-keeper` (default `~/.config/appimage-keeper`); `--config-dir DIR` replaces it |',
    '| global config | `<config dir>/config.yml` (missing = every default) |',
    '| secrets | `<config dir>/secrets.yml`, field `hub_token` (alias `github_token`); a warning when group or others can read it |',
    '| recipes | `<config dir>/apps/<app>/<app>.yml` or `<config dir>/apps/<app>.yml` (`.yaml` too) |',
    '| state, lock, metadata cache | `$XDG_STATE_HOME/appimage-keeper/` (default `~/.local/state/appimage-keeper/`); with `--config-dir`, a sub-folder `profiles/<dir>-<hash>/` of it, so two config directories never share state or a lock |',
    '| desktop entries, icons | `$XDG_DATA_HOME/applications`, `$XDG_DATA_HOME/icons/hicolor/...` (default `~/.local/share`) |',
    '',
    'An `XDG_*` variable that is not an absolute path is ignored, as the XDG Base Directory specification',
    'requires. `config.yml`, `secrets.yml` or a recipe that cannot be read stops `validate`, `list`, `check`',
    'and `update` with exit code 2 when it is `config.yml` or `secrets.yml`; a broken recipe only fails',
    'that app (exit code 1 for `validate`). A file that does not parse or validate is `CONFIG_INVALID`,',
    'each problem as `file:line:col`; one that cannot be read at all is `CONFIG_UNREADABLE`.',
    '',
    '## Global fields (`config.yml`)',
    '',
    'Every field is optional, and every field but those marked "config.yml only" can be overridden in a',
    'recipe (a recipe that sets one of those is an error naming it). `init --global` writes all of them',
    'with their defaults and a comment (over an existing file only with `--force`: else `FILE_EXISTS`, exit 2).',
    '',
    ...globalTable(GLOBAL_FIELDS),
    '',
    '¹ An appimage-keeper addition to the recipe format it shares with similar AppImage updaters.',
    '',
    '`hub_*` fields concern the first public forge (GitHub), `lab_*` the second (GitLab). The branded',
    'spellings in the Aliases column are accepted so recipes from other tools keep working; using both',
    'spellings of one field in one file is an error. `init` writes the canonical names.',
    '',
    'Every URL field (`strategy.url`, `strategy.repository`, `zsync`, the `hub_*`/`lab_*` URLs and each',
    '`hub_proxy_prefix` entry) must be an http(s) URL without credentials and without control characters:',
    '`https://user:password@host/…` is refused at `file:line:col` with the URL shown as',
    '`https://***@host/…` (a token belongs in `HUB_TOKEN` or `secrets.yml`, and is only sent to its API',
    'base), and so is an ESC, BEL, tab or line feed anywhere in the value, even where YAML quoting or URL',
    'parsing would have dropped it. Requests never send a URL’s userinfo as Basic auth, whatever URL a',
    'forge, script or redirect hands over.',
    '',
    '`hub_proxy_prefix` is `all` (every built-in proxy base, in order), one http(s) URL, or a list of them',
    'tried in order. `naming_format` must contain `{name}`, may contain `{version}` and no other',
    'placeholder, and must not contain `/`. File names starting with `.appimage-keeper` are reserved for',
    'appimage-keeper’s temporary downloads and kept versions (cleanup deletes them), so a format that can',
    'produce one is refused, including one starting with a part of that prefix followed by a placeholder',
    '(`.{name}`). A format whose names could exceed 255 bytes (with a 100-byte name and a 64-character',
    '`{version}`) is refused too.',
    '',
    '## Recipes',
    '',
    'A recipe has the fields below, plus any global field as a per-app override.',
    '',
    ...recipeRows,
    '',
    '### Recipe layouts',
    '',
    '- Every `*.yml` and `*.yaml` file below `apps/` is a recipe, in any folder (up to 8 deep):',
    '  `apps/<app>.yml`, `apps/<app>/<app>.yml`, `apps/<app>/main.yml`, `apps/group/<app>.yaml`. A folder',
    '  can hold the recipe’s scripts; data files for a script must not end in `.yml`/`.yaml`.',
    '- Files and folders whose names start with `.` are skipped; a folder reached twice (a symlink loop),',
    '  a broken link or anything deeper is listed by `validate` and `doctor` as not read.',
    '- The app is named by its `name` field, not the file name; a recipe that fails to load is still shown',
    '  by its `name` when that could be read. Any one line of text up to 100 bytes names an app (spaces,',
    '  accents, other scripts, a leading `_`), except a name with `/` or one that is `.` or `..`: `validate`',
    '  refuses those (and control characters, leading or trailing spaces, over 100 bytes) at the name’s',
    '  `file:line:col`. Where the name becomes a file name (`{name}`, the symlink, the install intent in',
    '  the state folder, temp files, the kept previous version, desktop ids and icons) it is made safe by',
    '  one rule, whatever the name (state on disk is never trusted): a name of letters, digits, `.`, `_`, `+`, `-`',
    '  starting with a letter or digit is kept as it is; otherwise accents are dropped (`é` → `e`), every',
    '  other run of characters becomes `_`, and leading characters that are not a letter or digit are',
    '  removed (`My App` → `My_App`, `_tool` → `tool`, `Café Ünïcode` → `Cafe_Unicode`); a name with',
    '  nothing left becomes `app-` and 8 hex digits of its SHA-256.',
    '- Two recipes whose safe names differ only in case, or whose `storage_dir` + `naming_format` can give',
    '  the same file for some versions, fail (`RECIPE_DUPLICATE`, naming the other file); the other apps',
    '  still load. So a `naming_format` without `{name}` (`CurseForge-{version}.AppImage`) is fine as long',
    '  as no other app in that `storage_dir` can produce the same name.',
    '- `ignore: true` keeps an app listed (`list`, `validate`) while `check` and `update` skip it.',
    '',
    '### Strategy blocks',
    '',
    'The `strategy` field is a mapping whose `strategy` key selects the kind.',
    '',
    '#### `forge`',
    '',
    ...strategyTable('forge', forgeStrategySchema.shape),
    '',
    '`inner_asset_match` may also be written at the top level of the recipe; if both are set they must',
    'agree. `zsync: auto` (use a `.zsync` asset of the release) is only valid with this strategy.',
    '',
    '#### `direct`',
    '',
    ...strategyTable('direct', directStrategySchema.shape),
    '',
    '#### `script`',
    '',
    ...strategyTable('script', scriptStrategySchema.shape),
    '',
    'The script runs with `bash`, its working directory is the recipe’s folder, and it receives `APP_NAME`,',
    '`APP_VERSION` (installed version, may be empty) and `APP_ARCH`. `script_path` is relative to the recipe’s',
    'folder, or absolute; it must be an existing regular file when the recipe is validated. A script outside',
    'the recipe’s folder (`../shared.sh`, `/home/me/bin/resolve.sh`) is your own file and is allowed.',
    'The first two lines of its output are the URL and the version; further lines are ignored (`-v` says',
    'how many).',
    '',
    '## The hub token',
    '',
    'The token is looked up in this order; the first non-empty one wins:',
    '',
    '1. the environment variable `HUB_TOKEN`, then `GITHUB_TOKEN`, then `GH_TOKEN`;',
    '2. `hub_token` in `secrets.yml`;',
    '3. `hub_token` in the recipe, then in `config.yml`. Both are discouraged and produce a warning.',
    '',
    '`secrets.yml` should be mode `0600`; when group or others can read it, every command that loads the',
    'configuration warns (on stderr) with the `chmod` to run. The token is only sent to the hub API base,',
    'never to a proxy or another origin.',
    '',
    '## Empty values (null) mean "not set"',
    '',
    'Any optional field may be written without a value (`hub_release_api_url:`) or as `null`. It then counts',
    'as absent: in `config.yml` the default applies, in a recipe the `config.yml` value (or the default)',
    'applies. This is how the starter config lists fields that have no default.',
    '',
    '## Path expansion',
    '',
    '`storage_dir` and `symlink_dir` expand a leading `~` or `~/`, and `$HOME` / `${HOME}` anywhere',
    '(`~user` is not expanded). A relative path is resolved against the directory of the file that set it:',
    'the config directory for `config.yml`, the recipe’s folder for a recipe (the `apps/` directory for a',
    'flat recipe). `--config-dir` expands `~` and is resolved against the working directory.',
    '',
    '## Decisions on configuration',
    '',
    '- An empty value is "not set" for every optional field (not only for fields without a default), so a',
    '  recipe can write `storage_dir:` to inherit and a commented-out starter value never breaks a file.',
    '- A token in a recipe is treated like one in `config.yml`: below `secrets.yml`, and warned about.',
    '- `list` lists broken recipes as invalid and still exits 0: it reports, `validate` judges (exit 1).',
    '- A missing required strategy field with a fixed set of values (`check_method`) is reported on the',
    '  strategy block with the allowed values, since there is no line for a value that is not there.',
    '',
    '## Precedence, in one line',
    '',
    'built-in default < `config.yml` < recipe, field by field; tokens follow their own order above.',
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  await writeOrCheckDoc(process.argv.slice(2), DOC_PATH, renderConfigDocs, {
    from: 'src/config',
    script: 'scripts/config-docs.ts',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
