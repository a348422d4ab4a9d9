import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../contract/config.ts';
import { PROVIDER } from '../../contract/first-screen.ts';
import { CONTACTS_FEATURE_IDS } from '../../contract/profile.ts';
import { featuresOf, VARIANTS, type VariantKey } from '../config.ts';
import { siteOrigin, type AppContext } from '../context.ts';
import { APPLICATION_ID, MEETINGS_FEATURE_ID, PORTAL_ID, PROPERTY_ID_MAP } from '../wire-ids.ts';
import { applicationTypeOf } from '../../contract/variant.ts';

/** SPEC §2, §9: the version shown, from package.json ('0.93.0' shows as 0.93). */
export const APP_VERSION = appVersion();

function appVersion(): string {
  const file = fileURLToPath(new URL('../../package.json', import.meta.url));
  const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string };
  return version.split('.').slice(0, 2).join('.');
}

function contactsFeatureId(variant: VariantKey): string {
  const features = featuresOf({ variant });
  if (features.supportGroup) return CONTACTS_FEATURE_IDS.gruppstod;
  if (features.chat) return CONTACTS_FEATURE_IDS.chatt;
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
    applicationType: applicationTypeOf(VARIANTS[v]),
    providerName: PROVIDER.name,
    providerUrl: PROVIDER.url,
    version: APP_VERSION,
    features: featuresOf(ctx.config),
    quickExitUrl: ctx.config.quickExitUrl,
    propertyIds: PROPERTY_ID_MAP,
  };
}

export function registerRuntimeConfigRoute(app: FastifyInstance, ctx: AppContext) {
  app.get('/config.json', async (req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return runtimeConfig(ctx, siteOrigin(ctx.config, req));
  });
}
