import type { MouseEvent } from 'react';
import { useLocation } from 'wouter';
import { useOptionalConfig, useProvider } from '../config/runtime-config.tsx';
import { showsVersion } from '../config/variant.ts';
import { useData } from '../data/index.ts';
import { goBack } from '../routes/navigation-history.ts';
import { BackIcon, ProductLogo } from '../ui-kit/icons.tsx';
import { HeaderActions } from './header-actions.tsx';
import { OrganisationLogoButton } from './organisation-logo.tsx';
import { HEADER_TEXTS } from './texts.ts';
import { useHideOnScroll } from './use-hide-on-scroll.ts';
import * as s from './page-header.styles.ts';

export interface PageHeaderProps {
  /** Shown in the title row on small screens. */
  title?: string;
  /** Shows the back button on desktop too (small screens always have it in the title row). */
  backButton?: boolean;
}

/**
 * The page header of SPEC §2; each page renders it with its own title. On the first screen, before
 * the runtime config is in, the logo and the provider's name only (no version, no buttons: whether a
 * child is signed in is not known yet).
 */
export function PageHeader({ title, backButton = false }: PageHeaderProps) {
  const config = useOptionalConfig();
  const providerName = useProvider().name;
  const { api, session } = useData();
  const [path, navigate] = useLocation();
  const hidden = useHideOnScroll();

  const onLogo = (event: MouseEvent) => {
    event.preventDefault();
    // The cached thread list is a signed-in child's.
    if (session.status === 'authenticated')
      api.clearThreadCache().catch((error: unknown) => console.error('clearThreadCache', error));
    // SPEC §2: the logo reloads the start page, or navigates to it from elsewhere.
    if (path === '/') window.location.reload();
    else navigate('/');
  };

  return (
    <header className={`${s.header} ${hidden ? s.hidden : ''}`}>
      <div className={s.bar}>
        <OrganisationLogoButton />
        <a
          href="/"
          className={s.logo}
          onClick={onLogo}
          aria-label={`${providerName}, ${HEADER_TEXTS.home.toLowerCase()}`}
        >
          <ProductLogo />
          <span className={s.logoName}>{providerName}</span>
        </a>
        {config && showsVersion(config, location.hostname) && (
          <span className={s.version}>
            <span className="visually-hidden">{HEADER_TEXTS.version} </span>
            {config.version}
          </span>
        )}
        {config && <HeaderActions />}
      </div>
      {(title || backButton) && (
        <div className={`${s.titleRow} ${backButton ? s.titleRowWithBack : ''}`}>
          <button type="button" className={s.back} onClick={() => goBack(navigate, path)}>
            <BackIcon />
            <span>{HEADER_TEXTS.back}</span>
          </button>
          {title && (
            <span className={s.title} aria-hidden="true">
              {title}
            </span>
          )}
        </div>
      )}
    </header>
  );
}
