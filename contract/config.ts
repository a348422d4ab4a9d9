import type { AppVariant, ApplicationType, VariantFeatures } from './variant.ts';

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
  /** SPEC §1's application type of this variant (Peers 1, the main app 2, Gruppstöd 3); null for the others. */
  applicationType: ApplicationType | null;
  providerName: string;
  providerUrl: string;
  version: string;
  features: VariantFeatures;
  /**
   * Ours: where 'Lämna sidan' (quick exit) goes, a neutral public page (env QUICK_EXIT_URL).
   */
  quickExitUrl: string;
  propertyIds: { consentDate: string; gender: string; birthYear: string; device: string; age: string };
}

export const TOKEN_SCOPE = 'openid profile portal offline_access';
