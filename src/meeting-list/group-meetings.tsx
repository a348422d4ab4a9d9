import { useEffect, useState } from 'react';
import { useApi } from '../data/index.ts';
import { useMeetings } from '../data/meeting-and-chat-hooks.ts';
import { uniqueById } from '../meeting-ui/meeting-state.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { GroupInformation } from './group-information.tsx';
import { MeetingList } from './meeting-list.tsx';
import { MEETING_LIST_TEXTS } from './texts.ts';

/**
 * The signed-in part of the group start page: group information and the meeting list. Renders from
 * the Dexie cache at once (offline too) while `loadMeetings()` refreshes it.
 */
export function GroupMeetings() {
  const api = useApi();
  const meetings = useMeetings();
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let current = true;
    api
      .loadMeetings()
      .catch((error: unknown) => console.error('loadMeetings', error))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api]);

  if (meetings === undefined || (meetings.length === 0 && loading)) {
    return <Spinner label={MEETING_LIST_TEXTS.loading} />;
  }
  if (meetings.length === 0) return <p>{MEETING_LIST_TEXTS.noMeetings}</p>;
  const unique = uniqueById(meetings);
  const information = unique.find((m) => m.series.groupInformation)?.series.groupInformation ?? '';
  return (
    <>
      <GroupInformation html={information} />
      <MeetingList meetings={unique} />
    </>
  );
}
