/**
 * The one test seam of provenance checking. End-to-end tests need bundles the verifier accepts, and
 * only a real Fulcio can sign those; so a build made by the test harness (esbuild define
 * `__KEEPER_TEST_HOOKS__ = true`) lets APPIMAGE_KEEPER_TEST_TRUSTED_ROOT name a trusted-root JSON file
 * that replaces the embedded roots. `npm run build` defines the flag false, so in the published bundle
 * the function below returns before it reads the environment: nothing can change what it trusts.
 */
import { readFileSync } from 'node:fs';
import type { TrustedRootJson } from './trusted-root.js';

declare const __KEEPER_TEST_HOOKS__: boolean | undefined;

/** True only in a bundle built for the test harness. */
export const TEST_HOOKS: boolean = typeof __KEEPER_TEST_HOOKS__ !== 'undefined' && __KEEPER_TEST_HOOKS__;

/** Environment variable naming the test trusted root (honoured only when TEST_HOOKS). */
export const TEST_ROOT_ENV = 'APPIMAGE_KEEPER_TEST_TRUSTED_ROOT';

/** The test trusted root, or undefined (always undefined outside a test-hook build). */
export function testTrustedRoot(env: NodeJS.ProcessEnv): TrustedRootJson | undefined {
  if (!TEST_HOOKS) return undefined;
  const file = env[TEST_ROOT_ENV];
  if (!file) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as TrustedRootJson;
}
