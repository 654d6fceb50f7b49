/** What the metadata API handlers need to know about one request. */
import type { IncomingHttpHeaders } from 'node:http';

/** A parsed request as seen by the forge API handlers. */
export interface ApiRequest {
  method: string;
  /** Raw (undecoded) path without the query. */
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** 'http://127.0.0.1:PORT' of the server that received the request. */
  origin: string;
  /** Budget key: origin plus client identity (anonymous, token, proxy). */
  clientKey: string;
  authorized: boolean;
}

/** Looks up the size of an asset this sim serves at an absolute URL. */
export type AssetSizer = (url: string) => Promise<number | undefined>;

/** A configured base URL (or prefix) without its trailing slashes. */
export function trimSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '');
}

/** ISO 8601 without milliseconds, as the forges print timestamps. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
