/** A footer link of the main variant is one of the five kinds of SPEC §2 Root shell. */
export type FooterLink =
  | { kind: 'dialog'; text: string; url: string }
  | { kind: 'new-tab'; text: string; url: string }
  | { kind: 'external'; text: string; url: string }
  | { kind: 'internal'; text: string; path: string }
  | { kind: 'callback'; text: string; action: 'scroll-to-top' };

/** The main variant's footer, in columns of two links each (three columns on desktop). */
export function footerLinks(providerUrl: string): FooterLink[][] {
  const site = providerUrl.replace(/\/$/, '');
  return [
    [
      { kind: 'new-tab', text: 'Om oss', url: `${site}/om-oss` },
      { kind: 'external', text: 'Kontakta oss', url: `${site}/kontakt` },
    ],
    [
      { kind: 'dialog', text: 'Integritetspolicy', url: `${site}/integritetspolicy` },
      { kind: 'dialog', text: 'Tillgänglighetsredogörelse', url: `${site}/tillganglighet` },
    ],
    [
      { kind: 'internal', text: 'Inställningar', path: '/installningar' },
      { kind: 'callback', text: 'Till toppen av sidan', action: 'scroll-to-top' },
    ],
  ];
}
