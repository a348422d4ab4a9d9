import './page-dom.ts';
import { useRef } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  VISUAL_VIEWPORT_HEIGHT,
  VISUAL_VIEWPORT_TOP,
  useVisualViewport,
} from '../../src/chat-window/use-visual-viewport.ts';
import { LOW_WINDOW_ATTRIBUTE } from '../../src/chat-window/low-window.ts';

// A browser that leaves the layout viewport alone when the keyboard opens (Safari) shrinks only the
// visual viewport: the window follows it. happy-dom has no visual viewport, so the test gives the
// page one that behaves as the browser's (an event target with a height and an offset).
class VisualViewport extends EventTarget {
  height = 568;
  offsetTop = 0;
  scale = 1;
  move(height: number, offsetTop: number, scale = 1) {
    this.height = height;
    this.offsetTop = offsetTop;
    this.scale = scale;
    this.dispatchEvent(new Event('resize'));
  }
}

const original = Object.getOwnPropertyDescriptor(window, 'visualViewport');
afterEach(() => {
  cleanup();
  if (original) Object.defineProperty(window, 'visualViewport', original);
  else delete (window as { visualViewport?: unknown }).visualViewport;
});

function Window({ active }: { active: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useVisualViewport(ref, active);
  return <div ref={ref} data-testid="window" />;
}

const sizeOf = (el: HTMLElement) => ({
  height: el.style.getPropertyValue(VISUAL_VIEWPORT_HEIGHT),
  top: el.style.getPropertyValue(VISUAL_VIEWPORT_TOP),
  low: el.hasAttribute(LOW_WINDOW_ATTRIBUTE),
});

describe('the chat window on a phone', () => {
  it('is as tall as the visual viewport, follows the keyboard, and lets go when it closes', () => {
    const viewport = new VisualViewport();
    Object.defineProperty(window, 'visualViewport', { configurable: true, value: viewport });
    const { rerender } = render(<Window active />);
    const el = screen.getByTestId('window');
    expect(sizeOf(el)).toEqual({ height: '568px', top: '0px', low: false });

    // The keyboard: the window is low, and takes the compact layout.
    act(() => viewport.move(284, 0));
    expect(sizeOf(el)).toEqual({ height: '284px', top: '0px', low: true });
    // Safari pans the visual viewport to the focused field: the window moves with it.
    act(() => viewport.move(284, 120));
    expect(sizeOf(el)).toEqual({ height: '284px', top: '120px', low: true });
    // A pinch zoom is no keyboard: the window stays the screen's.
    act(() => viewport.move(200, 40, 2));
    expect(sizeOf(el)).toEqual({ height: '', top: '', low: false });
    act(() => viewport.move(568, 0));
    expect(sizeOf(el)).toEqual({ height: '568px', top: '0px', low: false });

    // Minimised: the bar is not full-screen, so nothing is set and nothing is listened to.
    rerender(<Window active={false} />);
    expect(sizeOf(el)).toEqual({ height: '', top: '', low: false });
    act(() => viewport.move(284, 0));
    expect(sizeOf(el)).toEqual({ height: '', top: '', low: false });
  });
});
