/**
 * The effective, fully-defaulted settings the rest of the tool works with. The global settings and
 * the strategies are inferred from their zod schemas (`fields.ts`, `field-kit.ts`), so a field
 * is declared once; `settings.ts` merges global and recipe values.
 */
import type * as z from 'zod';
import type { GLOBAL_FIELDS } from './fields.js';
import type {
  directStrategySchema,
  forgeStrategySchema,
  scriptStrategySchema,
  strategySchema,
} from './field-kit.js';

/** A forge release source; `repository` is https://<host>/<owner>/<repo> (lab: nested groups allowed). */
export type ForgeStrategy = z.output<typeof forgeStrategySchema>;

/** A plain URL watched with a validator header. */
export type DirectStrategy = z.output<typeof directStrategySchema>;

/** A resolver script; `script_path` is absolute (resolved against the recipe's folder) once loaded. */
export type ScriptStrategy = z.output<typeof scriptStrategySchema>;

export type StrategyConfig = z.output<typeof strategySchema>;

export type CheckMethod = DirectStrategy['check_method'];

type GlobalField = (typeof GLOBAL_FIELDS)[number];

/** Fields of config.yml (spec 2.1), every one overridable per recipe but the config.yml-only ones (FieldSpec.globalOnly). */
export type GlobalSettings = {
  [F in GlobalField as undefined extends F['default'] ? never : F['key']]: z.output<ReturnType<F['schema']>>;
} & {
  [F in GlobalField as undefined extends F['default'] ? F['key'] : never]?:
    z.output<ReturnType<F['schema']>> | undefined;
};

/** Which delta update may replace a full download (`auto`: a .zsync file, else block maps). */
export type DeltaMethod = GlobalSettings['delta'];

/** `all` means every built-in proxy base, in order. */
export type ProxyPrefix = GlobalSettings['hub_proxy_prefix'];

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
