import type { Command } from 'commander';
import type { Context } from '../core/context.js';
import type { Invocation } from './main.js';

/** Registers the unattended-operation commands (schedule, doctor, rollback, unhold). */
export function registerOpsCommands(_program: Command, _inv: Invocation, _ctx: () => Context): void {
  // Commands are added here by the unattended-operation work.
}
