import type { Command } from 'commander';
import type { Context } from '../core/context.js';
import type { Invocation } from './main.js';

/** Registers the commands that talk to the network and write state (check, update, remove). */
export function registerEngineCommands(_program: Command, _inv: Invocation, _ctx: () => Context): void {
  // Filled in as the engine lands.
}
