import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPDATE_CHECK_INTERVAL_MS } from '../../contract/timings.ts';
import {
  createUpdateController,
  newVersionAvailable,
  updatePending,
  type UpdateWorkbox,
} from '../../src/pwa/update-controller.ts';

type Listener = () => void;

/** Stands in for workbox-window's Workbox: the test fires its lifecycle events. */
class FakeWorkbox implements UpdateWorkbox {
  listeners = new Map<string, Listener[]>();
  register = vi.fn(async () => undefined);
  update = vi.fn(async () => {});
  messageSkipWaiting = vi.fn(() => {});
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  fire(type: 'waiting' | 'controlling') {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
}

function setup({ formData = false, initiallyControlled = true } = {}) {
  const workbox = new FakeWorkbox();
  const reload = vi.fn();
  let visible: (() => void) | undefined;
  const state = { formData };
  const controller = createUpdateController({
    workbox,
    reload,
    hasUnsavedFormData: () => state.formData,
    initiallyControlled,
    onVisible: (listener) => {
      visible = listener;
      return () => (visible = undefined);
    },
  });
  return { workbox, reload, controller, state, becomeVisible: () => visible?.() };
}

beforeEach(() => {
  vi.useFakeTimers();
  newVersionAvailable.value = false;
  updatePending.value = false;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('update checks', () => {
  it('registers, then checks every 60 s and when the page becomes visible', async () => {
    const { workbox, controller, becomeVisible } = setup();
    await controller.start();
    expect(workbox.register).toHaveBeenCalledOnce();
    expect(workbox.update).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS - 1);
    expect(workbox.update).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(workbox.update).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS);
    expect(workbox.update).toHaveBeenCalledTimes(2);

    becomeVisible();
    expect(workbox.update).toHaveBeenCalledTimes(3);

    controller.stop();
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS * 3);
    becomeVisible();
    expect(workbox.update).toHaveBeenCalledTimes(3);
  });

  it('logs a failed check to the console only', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { workbox, controller, reload } = setup();
    const failure = new TypeError('Failed to fetch');
    workbox.update.mockRejectedValueOnce(failure);
    await controller.checkForUpdate();
    expect(error).toHaveBeenCalledWith('Failed to check for updates:', failure);
    expect(reload).not.toHaveBeenCalled();
    expect(newVersionAvailable.value).toBe(false);
  });
});

describe('new version', () => {
  it('sets the flag, activates the waiting worker and reloads once it controls the page', () => {
    const { workbox, reload } = setup();
    workbox.fire('waiting');
    expect(newVersionAvailable.value).toBe(true);
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    expect(reload).not.toHaveBeenCalled();

    workbox.fire('controlling');
    expect(reload).toHaveBeenCalledOnce();
    workbox.fire('controlling');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not reload when the first service worker takes control, but does for a later version', () => {
    const { workbox, reload } = setup({ initiallyControlled: false });
    workbox.fire('controlling');
    expect(reload).not.toHaveBeenCalled();
    expect(newVersionAvailable.value).toBe(false);

    workbox.fire('waiting');
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    workbox.fire('controlling');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('waits for the next navigation while the user has form data', () => {
    const { workbox, reload, controller, state } = setup({ formData: true });
    expect(controller.reloadIfUpdatePending()).toBe(false);

    workbox.fire('waiting');
    expect(newVersionAvailable.value).toBe(true);
    expect(updatePending.value).toBe(true);
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();

    state.formData = false; // saved or not: the navigation leaves the form either way
    expect(controller.reloadIfUpdatePending()).toBe(true);
    expect(updatePending.value).toBe(false);
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    workbox.fire('controlling');
    expect(reload).toHaveBeenCalledOnce();
    expect(controller.reloadIfUpdatePending()).toBe(false);
  });

  it('follows a version another tab activated, deferred by form data too', () => {
    const { workbox, reload, controller } = setup({ formData: true });
    workbox.fire('controlling');
    expect(newVersionAvailable.value).toBe(true);
    expect(reload).not.toHaveBeenCalled();

    controller.reloadIfUpdatePending();
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledOnce();
  });
});
