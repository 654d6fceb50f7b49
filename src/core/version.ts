declare const __APPIMAGE_KEEPER_VERSION__: string | undefined;

/** The tool's version: injected by the bundler, "dev" when run from source. */
export const VERSION: string =
  typeof __APPIMAGE_KEEPER_VERSION__ === 'string' ? __APPIMAGE_KEEPER_VERSION__ : '0.0.0-dev';

/** User-Agent for every HTTP request we send. */
export const USER_AGENT = `appimage-keeper/${VERSION}`;
