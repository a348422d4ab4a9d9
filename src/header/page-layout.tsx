import type { ReactNode } from 'react';
import { PageHeader, type PageHeaderProps } from './page-header.tsx';
import { page } from '../styles/controls.ts';

/** A routed page: the page header, then the page's own content as the main landmark. */
export function PageLayout({ children, ...header }: PageHeaderProps & { children: ReactNode }) {
  return (
    <>
      <PageHeader {...header} />
      <main id="main" className={page} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
