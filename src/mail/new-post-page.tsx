import { PageLayout } from '../shell/page-layout.tsx';

/** Route '/mina-sidor/nytt-inlagg': write a new mail-style message to a counsellor. */
export function NewPostPage() {
  return <PageLayout backButton>{null}</PageLayout>;
}
