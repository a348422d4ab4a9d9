import type { AppVariant, VariantFeatures } from './variant.ts';

/** `GET /config.json`: the client's runtime configuration (SPEC §3 Config, ARCHITECTURE.md). */
export interface RuntimeConfig {
  production: boolean;
  authUrl: string;
  apiUrl: string;
  signalHubUrl: string;
  authClientId: string;
  portalId: string;
  applicationId: string;
  meetingsFeatureId: string;
  /** The `{contactsapplicationfeature-id}` path segment of SPEC §7 Profile for this variant. */
  contactsFeatureId: string;
  variant: AppVariant;
  providerName: string;
  providerUrl: string;
  version: string;
  features: VariantFeatures;
  propertyIds: { consentDate: string; gender: string; birthYear: string; device: string; age: string };
}

export const TOKEN_SCOPE = 'openid profile portal offline_access';
