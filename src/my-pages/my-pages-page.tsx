import { useNotificationCount, useProfile } from '../data/live-queries.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { MyConversations } from '../my-conversations/my-conversations.tsx';
import { MyPeerPosts } from '../peers/my-peer-posts.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { ContactMessageList } from './contact-message-list.tsx';
import { NotificationList } from './notification-list.tsx';
import { MY_PAGES_TEXTS } from './texts.ts';

/** Route '/mina-sidor': the signed-in user's own area; '#notiser' is the notifications button's anchor. */
export function MyPagesPage() {
  const profile = useProfile();
  const count = useNotificationCount();
  const peers = useConfig().features.peers;
  return (
    <PageLayout title={MY_PAGES_TEXTS.heading} backButton>
      <h1>{MY_PAGES_TEXTS.heading}</h1>
      {profile && (
        <p>
          {MY_PAGES_TEXTS.signedInAs}{' '}
          <strong data-testid="my-pages-username">{profile.loginName ?? profile.username}</strong>
        </p>
      )}
      {/* Peers: the young person's own posts first; mail to a counsellor stays below. */}
      {peers && <MyPeerPosts />}
      <MyConversations />
      <section id="notiser" aria-labelledby="my-pages-notifications">
        <h2 id="my-pages-notifications">{MY_PAGES_TEXTS.notifications}</h2>
        <p role="status">
          {count > 0 ? MY_PAGES_TEXTS.newNotifications(count) : MY_PAGES_TEXTS.noNotifications}
        </p>
        <NotificationList />
      </section>
      <section id="meddelanden" aria-labelledby="my-pages-contact-messages">
        <h2 id="my-pages-contact-messages">{MY_PAGES_TEXTS.contactMessages}</h2>
        <ContactMessageList />
      </section>
    </PageLayout>
  );
}
