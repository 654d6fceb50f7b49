// The scaffold's placeholder values, apart from the templates that write them (which need the yaml
// library): validation only compares against them, and loads nothing more for it.

/**
 * Values `init --app` writes for the user to replace; `validate` refuses a recipe that still has them
 * (see placeholders.ts), so they are defined once here.
 */
export const PLACEHOLDERS = {
  repository: 'https://github.com/OWNER/REPO',
  url: 'https://example.com/download/latest.AppImage',
  scriptUrl: 'https://example.com/downloads/',
} as const;
