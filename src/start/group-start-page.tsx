import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import type { ReactNode } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { useSession } from '../data/index.ts';
import { LoginForm } from '../login/login-form.tsx';
import { GroupMeetings } from '../meeting-list/group-meetings.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { NeutralStartPage } from './neutral-start-page.tsx';
import { START_TEXTS } from './texts.ts';

/**
 * SPEC §2 Group-support start page. Signed out: a welcome and the inline login form with a personal
 * code. Signed in: the group information and the meeting list.
 */
export function GroupStartPage({ prompt }: { prompt: ReactNode }) {
  const config = useConfig();
  const { status } = useSession();
  if (status === 'unknown') return <NeutralStartPage />;
  return (
    <PageLayout>
      <h1>{config.providerName}</h1>
      <EmergencyLink />
      {prompt}
      {status === 'anonymous' && (
        <>
          <h2>{START_TEXTS.groupWelcomeHeading}</h2>
          <p>{START_TEXTS.groupWelcomeText}</p>
          <LoginForm groupStyle hideRegister />
        </>
      )}
      {status === 'authenticated' && (
        <section aria-labelledby="group-meetings">
          <h2 id="group-meetings">{START_TEXTS.groupMeetingsHeading}</h2>
          <GroupMeetings />
        </section>
      )}
    </PageLayout>
  );
}
