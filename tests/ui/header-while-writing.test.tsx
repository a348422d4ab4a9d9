import './page-dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HIDE_AFTER_PX, useHideOnScroll } from '../../src/header/use-hide-on-scroll.ts';

// The header slides away on scrolling down and back on scrolling up (SPEC §2, §9), but not while the
// child writes: with the keyboard open a phone has half its screen, and bringing the field and its
// button into view scrolls up.
function Header() {
  const hidden = useHideOnScroll();
  return (
    <>
      <p data-testid="header">{hidden ? 'hidden' : 'shown'}</p>
      <textarea aria-label="Ditt svar" />
    </>
  );
}

function scrollTo(y: number) {
  act(() => {
    window.scrollY = y;
    window.dispatchEvent(new Event('scroll'));
  });
}

afterEach(() => {
  cleanup();
  window.scrollY = 0;
});

const header = () => screen.getByTestId('header').textContent;

describe('the header while the child writes', () => {
  it('stays away on a scroll up while a text field has focus, and comes back once it has not', () => {
    render(<Header />);
    scrollTo(HIDE_AFTER_PX.mobile + 200);
    expect(header()).toBe('hidden');

    act(() => screen.getByLabelText('Ditt svar').focus());
    scrollTo(HIDE_AFTER_PX.mobile + 150);
    expect(header()).toBe('hidden');

    act(() => screen.getByLabelText('Ditt svar').blur());
    scrollTo(HIDE_AFTER_PX.mobile + 100);
    expect(header()).toBe('shown');
  });

  it('comes back at the top of the page, writing or not', () => {
    render(<Header />);
    scrollTo(HIDE_AFTER_PX.mobile + 200);
    act(() => screen.getByLabelText('Ditt svar').focus());
    scrollTo(0);
    expect(header()).toBe('shown');
  });
});
