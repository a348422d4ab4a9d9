/** The app variants of SPEC §1, spelled as the `X-App-Variant` header carries them. */
export const APP_VARIANTS = ['Barn', 'Gruppstod', 'Chatt', 'Peers', 'Assistent', 'Main'] as const;
export type AppVariant = (typeof APP_VARIANTS)[number];
export const VARIANT_HEADER = 'X-App-Variant';

/** Application type values of SPEC §1. */
export const APPLICATION_TYPE = { Peers: 1, Main: 2, Gruppstod: 3 } as const;
