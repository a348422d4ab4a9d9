/** An installed PWA runs in standalone display mode (iOS Safari reports it on navigator). */
export function installedAsApp(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}
