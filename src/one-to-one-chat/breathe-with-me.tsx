import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { secondaryButton } from '../styles/controls.ts';
import * as s from './breathe-with-me.styles.ts';
import { CHILD_CHAT_TEXTS } from './texts.ts';

const T = CHILD_CHAT_TEXTS.breathe;

/** In for 4 s, hold for 4 s, out for 6 s, round again (the hold's 4 s: docs/decisions.md). */
const PHASES = [
  { text: T.in, ms: 4_000, circle: s.breatheIn },
  { text: T.hold, ms: 4_000, circle: s.hold },
  { text: T.out, ms: 6_000, circle: s.breatheOut },
] as const;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** The system's wish for less motion, followed as it changes. */
function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia(REDUCED_MOTION).matches);
  useEffect(() => {
    const list = window.matchMedia(REDUCED_MOTION);
    const onChange = () => setReduced(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * 'Andas med mig': a guided breathing exercise for a child waiting in the queue. It sits inside the
 * chat window under the queue status and never covers it; the window unmounts it the moment the
 * chat leaves the queue. The phase is said in a polite live region (the text alternative of the
 * circle, and all there is with reduced motion). Pure client code: it works offline.
 */
export function BreatheWithMe() {
  const headingId = useId();
  const reducedMotion = usePrefersReducedMotion();
  const [step, setStep] = useState<number | null>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const running = step !== null;
  // Focus follows the button that replaced the one pressed, so a keyboard user is never dropped.
  const moveFocus = useRef(false);

  useEffect(() => {
    if (step === null) return;
    const timer = setTimeout(() => setStep((step + 1) % PHASES.length), PHASES[step]!.ms);
    return () => clearTimeout(timer);
  }, [step]);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (running ? stopButton : startButton).current?.focus();
  }, [running]);

  const start = () => {
    moveFocus.current = true;
    setStep(0);
  };
  const stop = () => {
    moveFocus.current = true;
    setStep(null);
  };
  // Escape inside the exercise ends it rather than minimising the window (the dialog's cancel).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !running) return;
    e.preventDefault();
    e.stopPropagation();
    stop();
  };

  const phase = step === null ? null : PHASES[step]!;
  return (
    <section className={s.band} aria-labelledby={headingId} onKeyDown={onKeyDown}>
      <div className={s.row}>
        <h3 id={headingId}>{T.heading}</h3>
        {running ? (
          <button ref={stopButton} type="button" className={secondaryButton} onClick={stop}>
            {T.stop}
          </button>
        ) : (
          <button ref={startButton} type="button" className={secondaryButton} onClick={start}>
            {T.start}
          </button>
        )}
      </div>
      <div className={running ? `${s.exercise} ${s.exerciseRunning}` : s.exercise}>
        {phase && !reducedMotion && (
          <div className={s.circleBox} aria-hidden="true">
            <div className={`${s.circle} ${phase.circle}`} data-testid="breathing-circle" />
          </div>
        )}
        {/* Always in the page, so that the first 'Andas in ...' is announced too. */}
        <p className={s.phaseText} aria-live="polite">
          {phase?.text}
        </p>
      </div>
    </section>
  );
}
