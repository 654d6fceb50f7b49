declare const __APPIMAGE_KEEPER_VERSION__: string | undefined;
declare const __APPIMAGE_KEEPER_REPOSITORY__: string | undefined;

/** The tool's version: injected by the bundler, "dev" when run from source. */
export const VERSION: string =
  typeof __APPIMAGE_KEEPER_VERSION__ === 'string' ? __APPIMAGE_KEEPER_VERSION__ : '0.0.0-dev';

/** The tool's own repository (package.json `repository`), where self-update looks for releases. */
export const REPOSITORY: string =
  typeof __APPIMAGE_KEEPER_REPOSITORY__ === 'string' && __APPIMAGE_KEEPER_REPOSITORY__ !== ''
    ? __APPIMAGE_KEEPER_REPOSITORY__
    : 'https://github.com/appimage-keeper/appimage-keeper';

/** User-Agent for every HTTP request we send. */
export const USER_AGENT = `appimage-keeper/${VERSION}`;
