// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from '../../client-kit/dialogs/confirm-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A page with a button that asks, as the apps use the dialog. */
function Page(props: Partial<ConfirmDialogProps> & { answers: boolean[]; closes?: () => void }) {
  const { answers, closes, ...rest } = props;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Avsluta chatten
      </button>
      <ConfirmDialog
        open={open}
        title="Bekräfta"
        text="Är du säker?"
        yes="Ja"
        no="Nej"
        {...rest}
        onClose={() => {
          setOpen(false);
          closes?.();
        }}
        onAnswer={(yes) => {
          setOpen(false);
          answers.push(yes);
        }}
      />
    </>
  );
}

describe('the confirm dialog', () => {
  it('asks with its title and text, answers with the button chosen and gives focus back', async () => {
    const user = userEvent.setup();
    const answers: boolean[] = [];
    render(<Page answers={answers} />);
    const opener = screen.getByRole('button', { name: 'Avsluta chatten' });

    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Bekräfta' });
    expect(dialog).toHaveProperty('open', true);
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('Är du säker?').id);
    await user.click(screen.getByRole('button', { name: 'Nej' }));
    expect(answers).toEqual([false]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Ja' }));
    expect(answers).toEqual([false, true]);
  });

  it('closes at once and answers 500 ms after the choice when asked to wait (SPEC §2)', async () => {
    vi.useFakeTimers();
    const answers: boolean[] = [];
    const closes = vi.fn();
    render(<Page answers={answers} closes={closes} answerDelayMs={500} />);
    fireEvent.click(screen.getByRole('button', { name: 'Avsluta chatten' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ja' }));
    expect(closes).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(499));
    expect(answers).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(answers).toEqual([true]);
  });

  it('answers no to Escape and a click on the backdrop, unless told not to', async () => {
    const user = userEvent.setup();
    const answers: boolean[] = [];
    const { rerender } = render(<Page answers={answers} />);
    const opener = screen.getByRole('button', { name: 'Avsluta chatten' });
    const backdropClick = () => fireEvent.click(screen.getByRole('dialog'));
    const escape = () => fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));

    await user.click(opener);
    backdropClick();
    await user.click(opener);
    escape();
    expect(answers).toEqual([false, false]);

    rerender(<Page answers={answers} dismiss="escape" />);
    await user.click(opener);
    backdropClick();
    expect(screen.getByRole('dialog')).toBeTruthy();
    escape();
    expect(answers).toEqual([false, false, false]);

    rerender(<Page answers={answers} dismiss="nothing" />);
    await user.click(opener);
    backdropClick();
    escape();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(answers).toHaveLength(3);
  });
});
