/**
 * Loads a JSON fixture into a running sim (for `sim/cli.ts` and manual runs). URLs may contain
 * `{url}` and `{secondUrl}`, replaced by the sim's origins; file paths are relative to the fixture.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { AssetBody, AssetOptions, Sim, SimRelease } from './types.js';

const origin = z.enum(['main', 'second']).default('main');

const assetSchema = z
  .strictObject({
    path: z.string().min(1),
    origin,
    file: z.string().optional(),
    text: z.string().optional(),
    base64: z.string().optional(),
    size: z.number().int().nonnegative().optional(),
    seed: z.number().int().optional(),
    etag: z.union([z.string(), z.literal(false)]).optional(),
    lastModified: z.union([z.string(), z.literal(false)]).optional(),
    contentType: z.string().optional(),
  })
  .refine(
    (a) => [a.file, a.text, a.base64, a.size].filter((v) => v !== undefined).length === 1,
    'an asset needs exactly one of file, text, base64 or size (+seed)',
  );

const releaseSchema = z.strictObject({
  tag: z.string().min(1),
  name: z.string().optional(),
  prerelease: z.boolean().optional(),
  draft: z.boolean().optional(),
  publishedAt: z.string().optional(),
  body: z.string().optional(),
  assets: z.array(
    z.strictObject({
      name: z.string().min(1),
      url: z.string().min(1),
      size: z.number().int().nonnegative().optional(),
      digest: z.string().optional(),
      directAssetUrl: z.string().optional(),
      contentType: z.string().optional(),
    }),
  ),
});

const repoSchema = z.strictObject({ owner: z.string(), repo: z.string(), releases: z.array(releaseSchema) });

const faultSchema = z.strictObject({
  path: z.string().optional(),
  pattern: z.string().optional(),
  times: z.number().int().positive().optional(),
  methods: z.array(z.string()).optional(),
  latencyMs: z.number().nonnegative().optional(),
  throttleBytesPerSec: z.number().positive().optional(),
  status: z.number().int().min(100).max(599).optional(),
  rateLimit: z
    .strictObject({
      kind: z.enum([
        '403-remaining',
        '429-retry-after-seconds',
        '429-retry-after-date',
        '429-ratelimit-reset',
      ]),
      resetInSeconds: z.number().nonnegative(),
    })
    .optional(),
  dropAfterBytes: z.number().int().nonnegative().optional(),
  stallAfterBytes: z.number().int().nonnegative().optional(),
  shortBody: z.number().int().positive().optional(),
  ignoreRange: z.boolean().optional(),
  noRanges: z.boolean().optional(),
  firstRangeOnly: z.boolean().optional(),
  wrongContentRange: z.boolean().optional(),
  headRefused: z.boolean().optional(),
  body: z.string().optional(),
  contentType: z.string().optional(),
});

/** The fixture file format (see docs/simulator.md). */
export const fixtureSchema = z.strictObject({
  assets: z.array(assetSchema).default([]),
  redirects: z
    .array(
      z.strictObject({
        path: z.string().min(1),
        target: z.string().min(1),
        status: z
          .union([z.literal(301), z.literal(302), z.literal(303), z.literal(307), z.literal(308)])
          .optional(),
        origin,
      }),
    )
    .default([]),
  hub: z.array(repoSchema).default([]),
  lab: z.array(z.strictObject({ project: z.string(), releases: z.array(releaseSchema) })).default([]),
  gitea: z
    .strictObject({
      flavor: z.enum(['gitea', 'forgejo', 'none']).optional(),
      repos: z.array(repoSchema).default([]),
    })
    .optional(),
  faults: z.array(faultSchema).default([]),
  rateLimit: z
    .strictObject({
      limit: z.number().int().nonnegative(),
      windowSeconds: z.number().positive(),
      authLimit: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

/** A parsed fixture. */
export type Fixture = z.infer<typeof fixtureSchema>;

function template(sim: Sim, value: string): string {
  return value.replaceAll('{url}', sim.url).replaceAll('{secondUrl}', sim.secondUrl);
}

function toRelease(sim: Sim, r: z.infer<typeof releaseSchema>): SimRelease {
  return {
    ...r,
    publishedAt: r.publishedAt === undefined ? undefined : new Date(r.publishedAt),
    assets: r.assets.map((a) => ({
      ...a,
      url: template(sim, a.url),
      directAssetUrl: a.directAssetUrl === undefined ? undefined : template(sim, a.directAssetUrl),
    })),
  };
}

function assetBody(a: z.infer<typeof assetSchema>, baseDir: string): AssetBody {
  if (a.file !== undefined) return { file: resolve(baseDir, a.file) };
  if (a.text !== undefined) return Buffer.from(a.text);
  if (a.base64 !== undefined) return Buffer.from(a.base64, 'base64');
  return { size: a.size ?? 0, seed: a.seed ?? 0 };
}

/** Applies a parsed fixture to `sim`; relative asset files resolve against `baseDir`. */
export function applyFixture(sim: Sim, fixture: Fixture, baseDir: string): void {
  for (const a of fixture.assets) {
    const options: AssetOptions = {
      etag: a.etag,
      lastModified:
        a.lastModified === undefined || a.lastModified === false ? a.lastModified : new Date(a.lastModified),
      contentType: a.contentType,
    };
    if (a.origin === 'second') sim.putSecondAsset(a.path, assetBody(a, baseDir), options);
    else sim.putAsset(a.path, assetBody(a, baseDir), options);
  }
  for (const r of fixture.redirects) {
    if (r.origin === 'second') sim.redirectSecond(r.path, template(sim, r.target), r.status);
    else sim.redirect(r.path, template(sim, r.target), r.status);
  }
  for (const h of fixture.hub)
    sim.hub.setReleases(
      h.owner,
      h.repo,
      h.releases.map((r) => toRelease(sim, r)),
    );
  for (const l of fixture.lab)
    sim.lab.setReleases(
      l.project,
      l.releases.map((r) => toRelease(sim, r)),
    );
  if (fixture.gitea) {
    for (const g of fixture.gitea.repos) {
      sim.gitea.setReleases(
        g.owner,
        g.repo,
        g.releases.map((r) => toRelease(sim, r)),
      );
    }
    if (fixture.gitea.flavor) sim.gitea.setFlavor(fixture.gitea.flavor);
  }
  for (const { path, pattern, ...fault } of fixture.faults) {
    if ((path === undefined) === (pattern === undefined))
      throw new Error('a fault needs exactly one of path or pattern');
    sim.fault(path ?? new RegExp(pattern ?? ''), fault);
  }
  if (fixture.rateLimit) sim.setRateLimit(fixture.rateLimit);
}

/** Reads, validates and applies a fixture file. */
export async function loadFixture(sim: Sim, file: string): Promise<void> {
  const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
  const parsed = fixtureSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  applyFixture(sim, parsed.data, dirname(resolve(file)));
}
