import './page-dom.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientErrorReport } from '../../worker/base/session.ts';
import { reportUiErrorsTo } from '../../src/errors/ui-error-reporting.ts';
import { PageErrorBoundary } from '../../src/ui-kit/page-error-boundary.tsx';

const stops: (() => void)[] = [];
afterEach(() => {
  cleanup();
  for (const stop of stops.splice(0)) stop();
});

function Broken(): never {
  throw new Error('Trasig sida');
}

describe('UI errors for the client log (SPEC §8)', () => {
  it('reports a failed render caught by the error boundary, which still shows its Swedish message', () => {
    const reports: ClientErrorReport[] = [];
    stops.push(reportUiErrorsTo((r) => reports.push(r)));
    render(
      <PageErrorBoundary>
        <Broken />
      </PageErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Försök igen');
    expect(reports.map((r) => r.message)).toEqual(['Failed render: Error: Trasig sida']);
    expect(reports[0]?.stack).toContain('Broken');
  });

  it('reports nothing once stopped', () => {
    const reports: ClientErrorReport[] = [];
    reportUiErrorsTo((r) => reports.push(r))();
    render(
      <PageErrorBoundary>
        <Broken />
      </PageErrorBoundary>,
    );
    expect(reports).toEqual([]);
  });
});
