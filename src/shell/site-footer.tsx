import { useState } from 'react';
import { Link } from 'wouter';
import type { RuntimeConfig } from '../../contract/config.ts';
import { useOptionalConfig, useProvider } from '../config/runtime-config.tsx';
import { EmbeddedPageDialog } from '../dialogs/embedded-page-dialog.tsx';
import { footerLinks, type FooterLink } from './footer-links.ts';
import { ProductLogo } from '../ui-kit/icons.tsx';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';
import * as s from './site-footer.styles.ts';

function FooterLinkItem({ link, openDialog }: { link: FooterLink; openDialog: (l: FooterLink) => void }) {
  switch (link.kind) {
    case 'internal':
      return <Link href={link.path}>{link.text}</Link>;
    case 'external':
      return <a href={link.url}>{link.text}</a>;
    case 'new-tab':
      return (
        <a href={link.url} target="_blank" rel="noreferrer">
          {link.text} <span className="visually-hidden">{SHELL_TEXTS.opensInNewTab}</span>
        </a>
      );
    case 'dialog':
    case 'callback':
      return (
        <button type="button" className={s.linkButton} onClick={() => openDialog(link)}>
          {link.text}
        </button>
      );
  }
}

/** The main variant's link columns: a list on mobile, three columns on desktop. */
function FooterLinkColumns({ config }: { config: RuntimeConfig }) {
  const [dialog, setDialog] = useState<{ url: string; title: string } | null>(null);
  const act = (link: FooterLink) => {
    if (link.kind === 'dialog') setDialog({ url: link.url, title: link.text });
    if (link.kind === 'callback') window.scrollTo({ top: 0 });
  };
  return (
    <nav aria-label={SHELL_TEXTS.footerLinks}>
      <ul className={s.columns}>
        {footerLinks(config.providerUrl).map((column, i) => (
          <li key={i} className={s.column}>
            <ul className={s.list}>
              {column.map((link) => (
                <li key={link.text}>
                  <FooterLinkItem link={link} openDialog={act} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <EmbeddedPageDialog
        url={dialog?.url ?? null}
        title={dialog?.title ?? ''}
        onClose={() => setDialog(null)}
      />
    </nav>
  );
}

/**
 * The root shell's footer in both styles of SPEC §2. On the first screen, before the runtime config
 * is in, the provider of this deployment (the same the config names); the main variant's link
 * columns come with the config.
 */
export function SiteFooter() {
  const config = useOptionalConfig();
  const provider = useProvider();
  return (
    <footer className={s.footer}>
      <div className={s.inner}>
        {/* SPEC §2 Root shell: the way back to the organisation's site in every footer; the main
            variant adds its link columns. */}
        {config?.features.main && <FooterLinkColumns config={config} />}
        <p>
          <a href={provider.url} target="_blank" rel="noreferrer">
            {SHELL_TEXTS.backTo} {provider.name}
          </a>
        </p>
        <div className={s.bottom}>
          <p className={s.copyright}>
            {SHELL_TEXTS.copyright} {provider.name}
          </p>
          <Link href="/" className={s.logo}>
            <ProductLogo label={SHELL_TEXTS.homeLogo} size={36} />
          </Link>
        </div>
      </div>
    </footer>
  );
}
