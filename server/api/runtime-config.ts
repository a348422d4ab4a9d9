import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../contract/config.ts';
import { CONTACTS_FEATURE_IDS } from '../../contract/profile.ts';
import { VARIANTS, type VariantKey } from '../config.ts';
import { issuerOf, type AppContext } from '../context.ts';

export const APP_VERSION = '0.93';
export const PORTAL_ID = 'portal';
export const APPLICATION_ID = 'conversationsapplication-id';
export const MEETINGS_FEATURE_ID = 'meetingsapplicationfeature-id';
export const PROVIDER = { name: 'Stödlinjen', url: 'https://example.org' };

const PROPERTY_ID_MAP = {
  consentDate: 'consentDate',
  gender: 'gender',
  birthYear: 'birthYear',
  device: 'device',
  age: 'age',
} as const;
export const PROPERTY_IDS: readonly string[] = Object.values(PROPERTY_ID_MAP);

function contactsFeatureId(variant: VariantKey): string {
  if (variant === 'gruppstod') return CONTACTS_FEATURE_IDS.gruppstod;
  if (variant === 'chatt') return CONTACTS_FEATURE_IDS.chatt;
  return CONTACTS_FEATURE_IDS.main;
}

/** `GET /config.json`: URLs follow the origin the browser used, so any host name works. */
export function runtimeConfig(ctx: AppContext, origin: string): RuntimeConfig {
  const v = ctx.config.variant;
  return {
    production: ctx.config.production,
    authUrl: origin,
    apiUrl: `${origin}/portal`,
    signalHubUrl: origin,
    authClientId: 'portal-web',
    portalId: PORTAL_ID,
    applicationId: APPLICATION_ID,
    meetingsFeatureId: MEETINGS_FEATURE_ID,
    contactsFeatureId: contactsFeatureId(v),
    variant: VARIANTS[v],
    providerName: PROVIDER.name,
    providerUrl: PROVIDER.url,
    version: APP_VERSION,
    features: {
      supportGroup: v === 'gruppstod',
      assistant: v === 'assistent',
      child: v === 'barn',
      peers: v === 'peers',
      chat: v === 'chatt',
    },
    propertyIds: PROPERTY_ID_MAP,
  };
}

export function registerRuntimeConfigRoute(app: FastifyInstance, ctx: AppContext) {
  app.get('/config.json', async (req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return runtimeConfig(ctx, issuerOf(req));
  });
}
