/** The User-Agent every request of the tool sends; the version is injected by the bundler. */

declare const __APPIMAGE_KEEPER_VERSION__: string | undefined;

/** `appimage-keeper/<version>` (`dev` when running from source). */
export const USER_AGENT = `appimage-keeper/${
  typeof __APPIMAGE_KEEPER_VERSION__ === 'string' ? __APPIMAGE_KEEPER_VERSION__ : 'dev'
}`;
