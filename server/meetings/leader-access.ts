import type { AppContext } from '../context.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';

/**
 * A group leader acts only on the series they lead. Anything else - a counsellor, a leader of
 * another series, a series that does not exist - is 403, so ids of other groups reveal nothing.
 */
export async function assertLeads(ctx: AppContext, principal: Principal, seriesId: number) {
  if (!principal.roles.includes('group_leader') || !Number.isInteger(seriesId))
    throw new ApiError('forbidden');
  const row = await ctx.db
    .selectFrom('series_memberships')
    .select('role')
    .where('series_id', '=', seriesId)
    .where('account_id', '=', principal.accountId)
    .executeTakeFirst();
  if (row?.role !== 'leader') throw new ApiError('forbidden');
}

/** The meeting if the principal leads its series: 404 when it does not exist, else 403. */
export async function ledMeeting(ctx: AppContext, principal: Principal, meetingId: number) {
  if (!principal.roles.includes('group_leader')) throw new ApiError('forbidden');
  if (!Number.isInteger(meetingId)) throw new ApiError('bad_request');
  const meeting = await ctx.db
    .selectFrom('meetings')
    .selectAll()
    .where('id', '=', meetingId)
    .executeTakeFirst();
  if (!meeting) throw new ApiError('not_found');
  await assertLeads(ctx, principal, meeting.series_id);
  return meeting;
}

/** Ids of the series this account leads. */
export async function ledSeriesIds(ctx: AppContext, accountId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('series_memberships')
    .select('series_id')
    .where('account_id', '=', accountId)
    .where('role', '=', 'leader')
    .execute();
  return rows.map((r) => r.series_id);
}
