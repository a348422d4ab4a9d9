/**
 * The ids the runtime config hands the app (SPEC §7 `/config.json`): the app names them in its API
 * paths and contact properties, the routes check them. Ground floor: routes and the config read them.
 */
export const PORTAL_ID = 'portal';
export const APPLICATION_ID = 'conversationsapplication-id';
export const MEETINGS_FEATURE_ID = 'meetingsapplicationfeature-id';

export const PROPERTY_ID_MAP = {
  consentDate: 'consentDate',
  gender: 'gender',
  birthYear: 'birthYear',
  device: 'device',
  age: 'age',
} as const;
export const PROPERTY_IDS: readonly string[] = Object.values(PROPERTY_ID_MAP);
