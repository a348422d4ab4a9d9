import { registerChild } from '../../harness/actors/child-account.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';
import { logInChild } from '../../harness/page-models/child-login.ts';
import { PeerPostPage, writePeerPost } from '../../harness/page-models/peer-pages.ts';
import { startPagesFitAPhone, screensFitAPhone } from '../support/phone-walks.ts';
import { expect } from '../support/test.ts';

// This variant's start page at 320x568, 360x640 and 390x844, signed out and signed in: nothing
// wider than the screen, 'Lämna sidan' and the header in reach (support/small-screens.ts).
startPagesFitAPhone();

// A post of the child's own on its page, with the reply form: written at each test's login and
// published by a counsellor (a post waiting for one has no replies).
let postUrl = '';
screensFitAPhone(
  {
    signedOut: [],
    signedIn: [
      {
        name: 'post',
        open: async (page) => {
          await page.goto(postUrl);
          await expect(new PeerPostPage(page).heading).toHaveText('Hur gör ni när det känns tungt?');
        },
        field: (page) => new PeerPostPage(page).replyText,
        submit: (page) => new PeerPostPage(page).replySend,
      },
    ],
  },
  async (page, request) => {
    await logInChild(page, await registerChild(request, 'telefon'));
    const post = await writePeerPost(
      page,
      'Hur gör ni när det känns tungt?',
      'Jag vet inte vem jag ska prata med.',
    );
    const counsellor = new Counsellor(request);
    await counsellor.logIn();
    await counsellor.post(`/peers/posts/${post.id()}/approve`);
    postUrl = page.url();
  },
);
