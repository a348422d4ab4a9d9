import { expect, test, type PolicyViolation } from '../support/test.ts';
import { GroupStartPage } from '../../harness/page-models/group-start-page.ts';
import { MeetingDetailPage } from '../../harness/page-models/meeting-detail-page.ts';
import { expectNothingInjected, INJECTED_CONTENT } from '../support/injected-content.ts';
import { withMeetingContent } from '../support/meeting-content.ts';

// A meeting's subject is text, its description and the group's information are HTML the
// app sanitises to text elements; markup in any of them neither runs nor becomes an element.

const SUBJECT = `Träff med ${INJECTED_CONTENT.slice(0, 3).join(' ')}`;
const HTML = `<p><b>Om gruppen</b></p><p>Vi ses varje vecka. <a href="https://example.org/om">Läs mer</a></p>${INJECTED_CONTENT.join('')}`;

/**
 * DOMPurify parses the markup in a document that shares the page's policy, so the browser refuses
 * the payloads' inline handlers and styles there before DOMPurify removes them (and says so on the
 * console). Those refusals are the policy at work; nothing else may be refused.
 */
function expectOnlyRefusedWhileSanitising(violations: PolicyViolation[]) {
  expect(violations.length).toBeGreaterThan(0);
  for (const v of violations) {
    if (v.directive === 'console') {
      expect(v.sample).toMatch(/^(Executing inline event handler|Applying inline style) violates/);
    } else {
      expect(['script-src-attr', 'style-src-attr', 'style-src-elem']).toContain(v.directive);
      expect(v.blocked).toBe('inline');
    }
  }
}

test('markup in a meeting’s subject, description and the group information neither runs nor shows as elements', async ({
  page,
  policyViolations,
}) => {
  await withMeetingContent(
    { subject: SUBJECT, descriptionHtml: HTML, groupInformationHtml: HTML },
    async () => {
      const start = new GroupStartPage(page);
      await start.logIn();
      const running = start.cards(start.inProgress).first();
      await expect(running.getByRole('heading', { level: 4 })).toHaveText(SUBJECT);
      // The group information: its first bold text as a heading, the text, the web link kept.
      await expect(start.main.getByRole('heading', { name: 'Om gruppen' })).toBeVisible();
      const link = start.main.getByRole('link', { name: 'Läs mer' });
      await expect(link).toHaveAttribute('href', 'https://example.org/om');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(start.main.getByRole('link', { name: 'klicka här' })).toHaveCount(0);
      await expectNothingInjected(page);

      await running.getByRole('link', { name: /^Gå med/ }).click();
      const detail = new MeetingDetailPage(page);
      const chat = detail.chatWindow(SUBJECT);
      if (await chat.dialog.isVisible()) await chat.minimize();
      await expect(detail.title).toHaveText(SUBJECT);
      await expect(detail.main.getByText('Vi ses varje vecka.')).toBeVisible();
      await expect(detail.main.getByText('overlay')).toBeVisible();
      await expectNothingInjected(page);
      expectOnlyRefusedWhileSanitising(policyViolations.splice(0));
    },
  );
});
