import { describe, expect, it } from 'vitest';
import { environmentOf, showsVersion } from '../../src/config/variant.ts';
import type { RuntimeConfig } from '../../contract/config.ts';

describe('the environment (SPEC §3)', () => {
  it('is Test by the address, else Production or Development by the build', () => {
    expect(environmentOf({ production: true }, 'test.stodlinjen.se')).toBe('Test');
    expect(environmentOf({ production: true }, 'test-barn.example.org')).toBe('Test');
    expect(environmentOf({ production: false }, 'app.test.example.org')).toBe('Test');
    expect(environmentOf({ production: true }, 'stodlinjen.se')).toBe('Production');
    expect(environmentOf({ production: false }, 'localhost')).toBe('Development');
    expect(environmentOf({ production: true }, 'contest.example.org')).toBe('Production');
  });

  it('shows the version everywhere but in production (SPEC §2 page header)', () => {
    const config = (production: boolean) => ({ production }) as RuntimeConfig;
    expect(showsVersion(config(true), 'stodlinjen.se')).toBe(false);
    expect(showsVersion(config(true), 'test.stodlinjen.se')).toBe(true);
    expect(showsVersion(config(false), 'localhost')).toBe(true);
  });
});
