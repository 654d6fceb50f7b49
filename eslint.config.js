// Type-aware lint over every TypeScript file in the repo; plain JS scripts get the recommended rules.
// The layering of src/ (docs/architecture.md, "Layering") is enforced here too: see LAYERS below.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Top to bottom; a folder may import its own level and any level below, never one above.
// Folders on one line are siblings and may import each other.
const LAYERS = [
  ['entry'],
  ['main'],
  ['cli'],
  ['commands'],
  ['render'],
  ['app', 'system'],
  // One level in the product map, ordered inside: install places AppImages, appimage reads them,
  // trust verifies them, sources and transfer fetch them.
  ['install'],
  ['appimage'],
  ['trust'],
  ['sources', 'transfer'],
  // The run's Context (environment, paths, clock, events, and the HTTP client's settings).
  ['context'],
  ['http'],
  ['state', 'config'],
  ['core', 'types'],
];

// Upward imports with a reason; each names the seam it waits for and is deleted when that work
// merges. Keep this list short and shrinking.
const EXCEPTIONS = [];

const levelOf = (folder) => LAYERS.findIndex((level) => level.includes(folder));
const above = (folder) => LAYERS.slice(0, levelOf(folder)).flat();

// Relative specifiers are only unambiguous at a known depth, so rules are generated per depth:
// from src/<folder>/a/b.ts (depth 2) the folder `x` is spelt '../../x/...'.
function upwardRegex(depth, target) {
  const up = depth === 0 ? String.raw`\./` : String.raw`(\.\./){${depth}}`;
  return `^${up}${target === 'main' ? String.raw`main(\.js)?$` : `${target}(/|$)`}`;
}

function layerRules(folder, depth, allowed) {
  const targets = above(folder).filter((t) => !allowed.includes(t));
  if (targets.length === 0) return {};
  const message = (t) =>
    `src/${folder} may not import src/${t}: it sits above ${folder} in the layering (docs/architecture.md). Move the code down or pass the data in.`;
  return {
    'no-restricted-imports': [
      'error',
      { patterns: targets.map((t) => ({ regex: upwardRegex(depth, t), message: message(t) })) },
    ],
    // Dynamic import() is not covered by no-restricted-imports; esquery regexes cannot hold '/'.
    'no-restricted-syntax': [
      'error',
      ...targets.map((t) => ({
        selector: `ImportExpression[source.value=/${upwardRegex(depth, t).replaceAll('/', String.raw`\x2F`)}/]`,
        message: message(t),
      })),
    ],
  };
}

function filesAt(folder, depth) {
  if (folder === 'main') return depth === 0 ? ['src/main.ts'] : [];
  if (depth === 0) return [];
  return [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`];
}

const layering = LAYERS.flat().flatMap((folder) =>
  [0, 1, 2, 3, 4]
    .map((depth) => ({ files: filesAt(folder, depth), rules: layerRules(folder, depth, []) }))
    .filter((c) => c.files.length > 0 && Object.keys(c.rules).length > 0),
);
const exceptions = EXCEPTIONS.map(({ file, may }) => {
  const [, folder, ...rest] = file.split('/');
  return { files: [file], rules: layerRules(folder, rest.length, may) };
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  ...layering,
  ...exceptions,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' },
    },
  },
);
