/** The app variants of SPEC §1, spelled as the `X-App-Variant` header carries them. */
export const APP_VARIANTS = ['Barn', 'Gruppstod', 'Chatt', 'Peers', 'Assistent', 'Main'] as const;
export type AppVariant = (typeof APP_VARIANTS)[number];
export const VARIANT_HEADER = 'X-App-Variant';

/** Application type values of SPEC §1: the variants that have one. */
export const APPLICATION_TYPE = { Peers: 1, Main: 2, Gruppstod: 3 } as const;
export type ApplicationType = (typeof APPLICATION_TYPE)[keyof typeof APPLICATION_TYPE];

/** The variant's application type, or null for a variant SPEC gives none (Barn, Chatt, Assistent). */
export function applicationTypeOf(variant: AppVariant): ApplicationType | null {
  return variant in APPLICATION_TYPE ? APPLICATION_TYPE[variant as keyof typeof APPLICATION_TYPE] : null;
}

/**
 * What a variant offers (SPEC §3 Config feature flags, with `main` for the provider's main app).
 * The server puts them in `/config.json`; the clients ask these, never the variant's name.
 */
export interface VariantFeatures {
  supportGroup: boolean;
  assistant: boolean;
  child: boolean;
  peers: boolean;
  chat: boolean;
  main: boolean;
}

const NONE: VariantFeatures = {
  supportGroup: false,
  assistant: false,
  child: false,
  peers: false,
  chat: false,
  main: false,
};

export const VARIANT_FEATURES: Readonly<Record<AppVariant, VariantFeatures>> = {
  Barn: { ...NONE, child: true },
  Gruppstod: { ...NONE, supportGroup: true },
  Chatt: { ...NONE, chat: true },
  Peers: { ...NONE, peers: true },
  Assistent: { ...NONE, assistant: true },
  Main: { ...NONE, main: true, assistant: true },
};
