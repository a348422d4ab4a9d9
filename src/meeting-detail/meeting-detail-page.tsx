import { PageLayout } from '../shell/page-layout.tsx';
import { MEETING_DETAIL_TEXTS } from './texts.ts';

/** Route '/tillfalle/:id'; the meeting's card, chat and tasks come with the meeting screens. */
export function MeetingDetailPage({ id }: { id: string }) {
  return (
    <PageLayout title={MEETING_DETAIL_TEXTS.heading} backButton>
      <h1 data-meeting-id={id}>{MEETING_DETAIL_TEXTS.heading}</h1>
    </PageLayout>
  );
}
