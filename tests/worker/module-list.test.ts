import { describe, expect, it } from 'vitest';
import { mergeUnique } from '../../worker/sync/sync-module.ts';

describe("the worker's module list", () => {
  it('merges the modules’ commands, and refuses a name two modules declare', () => {
    const merged = mergeUnique<Record<string, number>>('command', [{ login: 1 }, undefined, { logout: 2 }]);
    expect(merged).toEqual({ login: 1, logout: 2 });
    expect(() => mergeUnique('command', [{ loadMeeting: 1 }, { loadMeeting: 2 }])).toThrow(
      "Two sync modules declare the command 'loadMeeting'",
    );
  });
});
