/** One app of `update --json` (as docs/update.md documents it). */
export interface UpdateAppJson {
  name: string;
  status: 'updated' | 'up_to_date' | 'deferred' | 'rate_limited' | 'failed' | 'skipped' | 'interrupted';
  from_version: string | null;
  to_version: string | null;
  path: string | null;
  error: { code: string; message: string; hint?: string } | null;
  retry_at: string | null;
  /** `deferred`: when the release becomes old enough to install. */
  eligible_at?: string;
  reason?: string;
  url?: string;
  method?: string;
  bytes_downloaded?: number;
  bytes_reused?: number;
  desktop?: {
    id: string | null;
    file: string | null;
    upstream_id: string | null;
    fallback_reason?: string;
    skipped?: string;
  };
  via_proxy?: string;
  warnings: string[];
}

/** The whole `update --json` document. */
export interface UpdateJson {
  command: string;
  apps: UpdateAppJson[];
  summary: {
    updated: number;
    up_to_date: number;
    rate_limited: number;
    failed: number;
    skipped: number;
    deferred: number;
    /** Present when an app was interrupted. */
    interrupted?: number;
  };
  bytes_downloaded: number;
}
