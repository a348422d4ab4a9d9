import { Route, Switch } from 'wouter';
import { MeetingView } from './meeting-view.tsx';
import { SeriesList } from './series-list.tsx';
import { SeriesMeetings } from './series-meetings.tsx';
import { meetingPath, seriesPath } from './paths.ts';

/**
 * The group leader's part of the staff console (nested at /personal/gruppledare): groups and
 * series, a series' meetings and participants, and one meeting. Each screen has its own address so
 * that the browser's back button and a reload keep the leader where they were.
 */
export function GroupLeaderConsole() {
  return (
    <Switch>
      <Route path={meetingPath(':seriesId', ':meetingId')}>
        {(params: { seriesId: string; meetingId: string }) => (
          <MeetingView
            key={params.meetingId}
            seriesId={Number(params.seriesId)}
            meetingId={Number(params.meetingId)}
          />
        )}
      </Route>
      <Route path={seriesPath(':seriesId')}>
        {(params: { seriesId: string }) => (
          <SeriesMeetings key={params.seriesId} seriesId={Number(params.seriesId)} />
        )}
      </Route>
      <Route>
        <SeriesList />
      </Route>
    </Switch>
  );
}
