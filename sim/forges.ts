/**
 * The simulated forges, in one table: the dispatcher asks each in this order whether a request
 * is one of its routes, and the `Sim` object carries each forge's controls under its name. A new
 * forge is its module (a `SimForgeFactory`) and one line here; test/sim/forge-table.test.ts fails
 * while the source registry has a forge this table lacks.
 */
import type { AssetSizer, ApiRequest } from './api-request.js';
import { giteaForge } from './gitea-api.js';
import { hubForge } from './hub-api.js';
import { labForge } from './lab-api.js';
import type { RateBudgets } from './rate-limit.js';
import type { Outgoing } from './send-body.js';
import type { SimOptions } from './types.js';

/** What every simulated forge is built from when the sim starts. */
export interface ForgeSetup {
  options: SimOptions;
  /** Ids shared by every forge's releases and repositories. */
  ids: { next(): number };
  budgets: RateBudgets;
  sizeOf: AssetSizer;
  /** Serves bytes on the second origin; returns the URL (the hub's attestation blobs). */
  putSecond: (path: string, body: Buffer) => string;
}

/** One running simulated forge: its answer to a request (undefined: not its route) and its controls. */
export interface SimForge<C> {
  respond(req: ApiRequest): Outgoing | undefined | Promise<Outgoing | undefined>;
  control: C;
}

/** Builds one simulated forge. */
export type SimForgeFactory<C> = (setup: ForgeSetup) => SimForge<C>;

/** Every simulated forge, in the order a request is offered to them (gitea's swagger route last). */
export const SIM_FORGES = { hub: hubForge, lab: labForge, gitea: giteaForge } satisfies Record<
  string,
  SimForgeFactory<object>
>;

/** The name of a simulated forge. */
export type SimForgeName = keyof typeof SIM_FORGES;

/** The controls of every simulated forge, by name: what `Sim.hub`, `Sim.lab`, … are. */
export type SimForgeControls = { [K in SimForgeName]: ReturnType<(typeof SIM_FORGES)[K]>['control'] };

/** The running forges, by name. */
export type SimForges = { [K in SimForgeName]: SimForge<SimForgeControls[K]> };

/** Starts every forge of the table. */
export function startForges(setup: ForgeSetup): SimForges {
  const entries = Object.entries(SIM_FORGES).map(([name, make]) => [name, make(setup)]);
  return Object.fromEntries(entries) as SimForges;
}

/** Each forge's controls under its name, for the `Sim` object. */
export function controlsOf(forges: SimForges): SimForgeControls {
  return Object.fromEntries(Object.entries(forges).map(([name, f]) => [name, f.control])) as SimForgeControls;
}
