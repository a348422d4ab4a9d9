import { describe, expect, it } from 'vitest';
import { trackerReferences } from '../../scripts/tracker-references.ts';

describe('the lint check for tracker references', () => {
  it('finds a tracker number in any wording, and leaves words that only look alike', () => {
    const text = [
      '// Issue 15: shown at once',
      ' * (issue 6) the brake',
      'see step 13/18 of the plan',
      'fixed in issues #9',
      'const issue = tokens.issue(subject);',
      'await tokens.issue(3);',
      'a stepper with 3 steps',
    ].join('\n');
    expect(trackerReferences([{ path: 'a.ts', text }])).toEqual([
      'a.ts:1: // Issue 15: shown at once',
      'a.ts:2: * (issue 6) the brake',
      'a.ts:3: see step 13/18 of the plan',
      'a.ts:4: fixed in issues #9',
    ]);
  });
});
