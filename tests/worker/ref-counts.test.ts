import { describe, expect, it } from 'vitest';
import { RefCounts } from '../../worker/base/ref-counts.ts';

describe('reference counts', () => {
  it('says which open is the first and which close the last', () => {
    const opens = new RefCounts<number>();
    expect(opens.add(7)).toBe(true);
    expect(opens.add(7)).toBe(false);
    expect(opens.remove(7)).toBe(false);
    expect(opens.has(7)).toBe(true);
    expect(opens.remove(7)).toBe(true);
    expect(opens.has(7)).toBe(false);
    expect(opens.remove(7)).toBe(false);
  });

  it('drops every hold of a key at once', () => {
    const opens = new RefCounts<string>();
    opens.add('a');
    opens.add('a');
    opens.add('b');
    expect(opens.drop('a')).toBe(2);
    expect(opens.keys()).toEqual(['b']);
    expect(opens.count('b')).toBe(1);
  });
});
