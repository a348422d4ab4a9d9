import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { useProvider } from '../config/runtime-config.tsx';
import { EmergencyLink } from '../ui-kit/emergency-link.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';

/**
 * What every start page shows while it is not known whether a child is signed in: the provider's
 * name, 'Är det akut? Ring 112.' and that the page is loading; never 'Logga in' (the child may be
 * signed in). It is the first HTML's page (rendered at build time, src/prerender.tsx), so it is on
 * screen before any script; each start page puts its own parts below the same heading and link.
 */
export function NeutralStartPage() {
  return (
    <PageLayout>
      <h1>{useProvider().name}</h1>
      <EmergencyLink />
      <Spinner label={SHELL_TEXTS.loading} />
    </PageLayout>
  );
}
