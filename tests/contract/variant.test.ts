import { describe, expect, it } from 'vitest';
import { APP_VARIANTS, applicationTypeOf } from '../../contract/variant.ts';

describe('the variants', () => {
  it('have the application types of SPEC §1: Peers 1, the main app 2, Gruppstöd 3, none for the rest', () => {
    expect(Object.fromEntries(APP_VARIANTS.map((variant) => [variant, applicationTypeOf(variant)]))).toEqual({
      Barn: null,
      Gruppstod: 3,
      Chatt: null,
      Peers: 1,
      Assistent: null,
      Main: 2,
    });
  });
});
