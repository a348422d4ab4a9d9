import type { RuntimeConfig } from '../../contract/config.ts';
import type { AccountResponse, ContactDetailResponse } from '../../contract/profile.ts';
import type { PortalDb, ProfileRow } from '../base/db.ts';
import type { HttpClient } from '../http/http-client.ts';

export const profilePath = (config: Pick<RuntimeConfig, 'contactsFeatureId'>) =>
  `/features/contacts/${config.contactsFeatureId}/detail`;

/** SPEC §3 User info from GET {api}/features/contacts/{featureId}/detail, written for the UI. */
export async function loadProfile(
  http: HttpClient,
  db: PortalDb,
  config: Pick<RuntimeConfig, 'contactsFeatureId'>,
): Promise<ProfileRow> {
  const [{ info }, account] = await Promise.all([
    http.get<ContactDetailResponse>(profilePath(config)),
    http.get<AccountResponse>('/accounts'),
  ]);
  const row: ProfileRow = {
    id: 'current',
    username: info.contact.name,
    loginName: account.username,
    contactId: info.contact.id,
    properties: info.contact.properties ?? {},
    createdAt: info.contact.createdDate,
  };
  await db.profile.put(row);
  return row;
}
