/**
 * The hub and lab URL overrides in both spellings: a base URL (`https://ghe.example.com/api/v3`) or
 * fp-appimage-updater's template (`https://ghe.example.com/api/v3/repos/{account}/{repository}/releases/latest`),
 * whose placeholders fp fills per repository. We need the base (the releases list and tags live
 * beside `latest`), so a template is accepted when the placeholders sit where the repository goes
 * and is reduced to the part before them.
 */

/** Which override a value belongs to. */
export type ForgeUrlKind = 'hub-api' | 'hub-web' | 'lab-api' | 'lab-web';

const PLACEHOLDER = /\{(account|repository|repo_path|project_path)\}/;
const REPO = String.raw`(?:\{account\}/\{repository\}|\{repo_path\})`;

const SHAPES: Record<ForgeUrlKind, { re: RegExp; example: string }> = {
  'hub-api': {
    re: new RegExp(String.raw`^(.*?)/repos/${REPO}(?:/releases(?:/latest)?)?/?$`),
    example: 'https://api.example.com/repos/{account}/{repository}/releases/latest',
  },
  'hub-web': {
    re: new RegExp(String.raw`^(.*?)/${REPO}/?$`),
    example: 'https://example.com/{account}/{repository}',
  },
  'lab-api': {
    re: /^(.*?)\/projects\/\{project_path\}(?:\/releases(?:\/permalink\/latest)?)?\/?$/,
    example: 'https://gitlab.example.com/api/v4/projects/{project_path}/releases/permalink/latest',
  },
  'lab-web': {
    re: new RegExp(String.raw`^(.*?)/${REPO}/?$`),
    example: 'https://gitlab.example.com/{repo_path}',
  },
};

/** True when the value uses fp's placeholders. */
export function isForgeUrlTemplate(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/**
 * The base URL an override means: the value itself, or a template's part before the repository.
 * Returns an error text for a template whose placeholders are elsewhere.
 */
export function forgeUrlBase(value: string, kind: ForgeUrlKind): { base: string } | { error: string } {
  const trimmed = value.trim();
  if (!isForgeUrlTemplate(trimmed)) return { base: trimmed.replace(/\/+$/, '') };
  const { re, example } = SHAPES[kind];
  const base = re.exec(trimmed)?.[1];
  if (base === undefined || isForgeUrlTemplate(base) || base === '') {
    return {
      error: `template placeholders must name the repository at the end of the path, as in "${example}" (or give the base URL without placeholders)`,
    };
  }
  return { base: base.replace(/\/+$/, '') };
}
