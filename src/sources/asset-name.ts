/** File name of a download URL, for strategies that only have a URL. */

/** The last path segment of `url`, decoded; `<app>.AppImage` when the path is empty. */
export function assetNameFromUrl(url: string, appName: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop();
  if (!last) return `${appName}.AppImage`;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
