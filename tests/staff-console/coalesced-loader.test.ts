import { describe, expect, it } from 'vitest';
import { coalesced } from '../../staff-console/api/coalesced-loader.ts';

/** A load the test finishes by hand, counting how often it started. */
function manualLoad() {
  const finishers: Array<() => void> = [];
  return {
    starts: () => finishers.length,
    load: () => new Promise<void>((resolve) => finishers.push(resolve)),
    /** Finishes the newest run and lets the loader react. */
    finish: async () => {
      finishers.at(-1)!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('the coalescing loader', () => {
  it('turns a burst of reloads during a run into one more run after it', async () => {
    const run = manualLoad();
    const reload = coalesced(run.load);
    reload();
    for (let i = 0; i < 5; i++) reload();
    expect(run.starts()).toBe(1);
    await run.finish();
    expect(run.starts()).toBe(2);
    await run.finish();
    expect(run.starts()).toBe(2);

    reload();
    expect(run.starts()).toBe(3);
  });

  it('keeps loading after a failed run', async () => {
    let calls = 0;
    const reload = coalesced(async () => {
      calls++;
      throw new Error('offline');
    });
    reload();
    await new Promise((r) => setImmediate(r));
    reload();
    expect(calls).toBe(2);
  });
});
