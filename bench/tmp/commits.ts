import { launchChromium, startBenchServer } from '../support.ts';

const RATE = Number(process.env.RATE ?? 8);
const barn = await startBenchServer({ APP_VARIANT: 'barn', DEMO_SEED: '1', NODE_ENV: 'production', CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist' });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await page.goto(`${barn.url}/`);
  if (process.env.SIGNED_IN === '1') {
    await page.getByRole('main').getByRole('button', { name: 'Logga in' }).click();
    const form = page.getByRole('form', { name: 'Logga in' });
    await form.getByLabel('Användarnamn').fill('demo');
    await form.getByLabel('Lösenord').fill('demo-losenord');
    await form.getByRole('button', { name: 'Logga in' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Logga ut' }).waitFor();
  }
  await page.close();
  for (let run = 0; run < 2; run++) {
    const p = await context.newPage();
    await p.addInitScript(`
      window.__log = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__log.push(['longtask', Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), inject() { return 1; },
        onCommitFiberRoot(id, root) { window.__log.push(['commit', Math.round(performance.now()), 0]); },
        onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {} };
    `);
    const cdp = await context.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await p.goto(`${barn.url}/`);
    await p.waitForTimeout(6000);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: Array<{ id: number; parent?: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>; samples: number[]; timeDeltas: number[]; startTime: number } };
    // self time per function and total (inclusive) per function in the window [FROM, TO] ms after start
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const name = (id: number) => { const f = byId.get(id)!.callFrame; return `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`; };
    const self = new Map<string, number>(); const incl = new Map<string, number>();
    let t = 0;
    profile.samples.forEach((id, i) => {
      t += profile.timeDeltas[i]!;
      if (byId.get(id)!.callFrame.functionName === '(idle)') return;
      const d = profile.timeDeltas[i]! / 1000;
      self.set(name(id), (self.get(name(id)) ?? 0) + d);
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) { const k = name(n); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + d); } }
    });
    const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 45).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n');
    console.log('SELF\n' + top(self));
    console.log('INCL\n' + top(incl));
    const log = await p.evaluate(() => (window as unknown as { __log: unknown[] }).__log);
    console.log(JSON.stringify(log));
    await p.close();
  }
} finally {
  await browser.close();
  await barn.stop();
}
