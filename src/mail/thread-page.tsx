import { PageLayout } from '../shell/page-layout.tsx';

/** Route '/mina-sidor/inlagg/:id': one mail thread. */
export function ThreadPage({ id }: { id: string }) {
  void id;
  return <PageLayout backButton>{null}</PageLayout>;
}
