import { after, before, beforeEach } from 'node:test';
import { startSim, type Sim, type SimOptions } from '../../sim/index.js';
import type { TmpHome } from './tmp-home.js';

/** A sim shared by the tests of one block, and the worlds they made on it. */
export interface SimSuite<W, A extends unknown[]> {
  /** The running sim (available inside the block's tests and hooks). */
  readonly sim: Sim;
  /** A fresh world on the sim; its home is removed after the block. */
  world(...args: A): Promise<W>;
}

/**
 * Registers `before`/`after` hooks in the current block (a describe, or the file): start one sim,
 * and afterwards remove every world's home, stop the sim and run `dispose` (e.g. drop fixtures).
 */
export function useSimSuite<W extends { home: TmpHome }, A extends unknown[]>(
  makeWorld: (sim: Sim, ...args: A) => Promise<W>,
  dispose: () => Promise<void> = () => Promise.resolve(),
): SimSuite<W, A> {
  let sim: Sim | undefined;
  const worlds: W[] = [];
  const running = (): Sim => {
    if (!sim) throw new Error('the suite sim is used outside its block (before its hook ran)');
    return sim;
  };
  before(async () => {
    sim = await startSim();
  });
  after(async () => {
    await Promise.all(worlds.map((w) => w.home.cleanup()));
    await sim?.stop();
    sim = undefined;
    await dispose();
  });
  return {
    get sim() {
      return running();
    },
    async world(...args) {
      const w = await makeWorld(running(), ...args);
      worlds.push(w);
      return w;
    },
  };
}

/** What `useSim` clears before each test of its block. */
export type SimReset = 'nothing' | 'requests' | 'requests-and-faults';

/**
 * Registers hooks in the current block: start a sim with `options` before it, clear its request
 * log (and faults) before each test as `reset` says, stop it after. The returned Sim forwards to
 * the running one, so it can be used in the block's tests and hooks like the real object.
 */
export function useSim(reset: SimReset, options: SimOptions = {}): Sim {
  let sim: Sim | undefined;
  const running = (): Sim => {
    if (!sim) throw new Error('the block sim is used outside its block (before its hook ran)');
    return sim;
  };
  before(async () => {
    sim = await startSim(options);
  });
  after(async () => {
    await sim?.stop();
    sim = undefined;
  });
  beforeEach(() => {
    if (reset === 'nothing') return;
    running().clearRequests();
    if (reset === 'requests-and-faults') running().clearFaults();
  });
  return new Proxy({} as Sim, {
    get(_target, key) {
      const target = running();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
