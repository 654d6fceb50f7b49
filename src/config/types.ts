/**
 * The effective, fully-defaulted settings the rest of the tool works with. The zod schemas in
 * `schema.ts` validate raw YAML into these shapes; `settings.ts` merges global and recipe values.
 */

export type CheckMethod = 'etag' | 'last-modified';

/** Which delta update may replace a full download (`auto`: a .zsync file, else block maps). */
export type DeltaMethod = 'auto' | 'zsync' | 'blockmap' | 'off';

export interface ForgeStrategy {
  strategy: 'forge';
  /** https://<host>/<owner>/<repo> (lab: nested groups allowed). */
  repository: string;
  asset_match?: string | undefined;
  asset_match_regex?: string | undefined;
  /** Pattern for the AppImage inside a ZIP asset (also accepted at the recipe's top level). */
  inner_asset_match?: string | undefined;
  /** Consider pre-releases too (default false: the forge's "latest" release); `only`: the newest pre-release. */
  prerelease?: boolean | 'only' | undefined;
  /** Follow this one literal tag (`continuous`, `nightly`) instead of the latest release. */
  tag?: string | undefined;
}

export interface DirectStrategy {
  strategy: 'direct';
  url: string;
  check_method: CheckMethod;
}

export interface ScriptStrategy {
  strategy: 'script';
  /** Absolute path (already resolved against the recipe's folder). */
  script_path: string;
  /** Seconds before the script is killed (default 120). */
  timeout?: number | undefined;
  /** Pass HUB_TOKEN, GITHUB_TOKEN and GH_TOKEN from the environment to the script (default false). */
  script_env_token?: boolean | undefined;
}

export type StrategyConfig = ForgeStrategy | DirectStrategy | ScriptStrategy;

/** `all` means every built-in proxy base, in order. */
export type ProxyPrefix = 'all' | string[];

/** Fields of config.yml (spec 2.1), every one overridable per recipe but the config.yml-only ones (FieldSpec.globalOnly). */
export interface GlobalSettings {
  storage_dir: string;
  symlink_dir: string;
  naming_format: string;
  manage_desktop_files: boolean;
  create_symlinks: boolean;
  segmented_downloads: boolean;
  delta: DeltaMethod;
  show_all: boolean;
  respect_rate_limits: boolean;
  hub_proxy: boolean;
  hub_proxy_prefix: ProxyPrefix;
  hub_token?: string | undefined;
  hub_release_api_url?: string | undefined;
  hub_release_web_url?: string | undefined;
  lab_release_api_url?: string | undefined;
  lab_release_web_url?: string | undefined;
  /** Parallel range requests per download (default 4). */
  download_connections: number;
  /** Seconds without a byte before a connection is considered stalled (default 30). */
  stall_timeout: number;
  /** Bytes per second a download must average over each stall_timeout window (default 10 KiB/s; 0 = off). */
  min_rate: number;
  /** Seconds one app's whole update may take (default 1800). */
  app_timeout: number;
  /** Send a desktop notification after unattended runs that changed something (default false). */
  notify: boolean;
  /** Keep the replaced version for `rollback` (default true). */
  keep_previous: boolean;
  max_asset_size: number;
  /** Build-provenance attestation check before downloading (default off). */
  provenance: 'off' | 'warn' | 'require';
  /** `owner/repo/.github/workflows/file.yml` that must have signed; default any workflow of the repository. */
  provenance_signer?: string | undefined;
  /** Release attestation check: when the release is immutable (auto), always, or never. */
  release_attestation: 'auto' | 'require' | 'off';
  /** Embedded-signature policy (default tofu). */
  signature: 'off' | 'tofu' | 'require';
  /** Seconds a release must have been out before it is installed (default none; 0 = none). */
  min_release_age?: number | undefined;
  /** Adapt desktop entries to the host so AppImages start (default true; docs/launch-fixes.md). */
  launch_fixes: boolean;
  /** `update` also runs `self-update` after the apps (default false). */
  auto_self_update: boolean;
  /** Proxy settings over the environment's (docs/network.md). */
  https_proxy?: string | undefined;
  http_proxy?: string | undefined;
  no_proxy?: string | undefined;
}

/** Where the hub token came from, for doctor and warnings. */
export type TokenSource =
  'env:HUB_TOKEN' | 'env:GITHUB_TOKEN' | 'env:GH_TOKEN' | 'secrets.yml' | 'config.yml';

/** Everything needed to handle one app, with globals merged under the recipe's own values. */
export interface AppSettings extends GlobalSettings {
  name: string;
  strategy: StrategyConfig;
  /** Listed but skipped by check and update. */
  ignore: boolean;
  /** Delta updates: false, true (<url>.zsync), 'auto' (forge asset), or a control-file URL. */
  zsync: boolean | string;
  /** Arguments appended to every Exec line of the desktop entry. */
  desktop_exec_args: string[];
  /** Environment variables set for the launcher. */
  desktop_env: Record<string, string>;
  /** The OpenPGP key fingerprint (40 upper-case hex) updates must be signed with. */
  signing_key?: string | undefined;
  recipeFile: string;
  recipeDir: string;
  token?: { value: string; source: TokenSource } | undefined;
  /**
   * Set when a shared token (environment, secrets.yml, config.yml) exists but is not sent because
   * this recipe points the hub API away from the base config.yml names.
   */
  tokenWithheld?: TokenSource | undefined;
}
