/**
 * Windowing for long message lists: which rows to put in the DOM for a scroll position, from the
 * rows' measured heights (an estimate for rows never rendered). Pure, so it is tested without layout.
 */

/** A list this long or longer is windowed; shorter ones render every row (and stay findable by Ctrl+F). */
export const VIRTUALISE_FROM_ROWS = 200;

/** Rows kept rendered above and below the viewport, in pixels, so fast scrolling shows no gap. */
export const OVERSCAN_PX = 800;

/** What a row is taken to be tall (top of one row to the top of the next) before it was measured. */
export const ESTIMATED_ROW_PX = 64;

export interface RowWindow {
  /** First rendered row (inclusive). */
  start: number;
  /** Last rendered row (exclusive). */
  end: number;
  /** Height standing in for the rows above `start`. */
  before: number;
  /** Height standing in for the rows from `end` on. */
  after: number;
  /** Height of every row together. */
  total: number;
}

/** Offsets of each row's top: offsets[i] is the sum of heights of rows 0..i-1; offsets[n] is the total. */
export function rowOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + heightOf(i);
  return offsets;
}

/** The last index i with offsets[i] <= y (0 when y is above every row). */
function rowAt(offsets: Float64Array, count: number, y: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return Math.min(low, Math.max(0, count - 1));
}

/**
 * The rows to render for a viewport of `viewport` pixels scrolled to `scrollTop`, with `overscan`
 * pixels of rows on each side. `followBottom` places the viewport at the end of the list whatever
 * `scrollTop` says (a chat that keeps to its newest message, before the browser has scrolled).
 */
export function rowWindow(
  offsets: Float64Array,
  scrollTop: number,
  viewport: number,
  overscan: number,
  followBottom: boolean,
): RowWindow {
  const count = offsets.length - 1;
  const total = offsets[count] ?? 0;
  if (count <= 0) return { start: 0, end: 0, before: 0, after: 0, total: 0 };
  const top = followBottom ? Math.max(0, total - viewport) : Math.max(0, Math.min(scrollTop, total));
  const start = rowAt(offsets, count, top - overscan);
  const end = Math.min(count, rowAt(offsets, count, top + viewport + overscan) + 1);
  return { start, end, before: offsets[start]!, after: total - offsets[end]!, total };
}

/** The mean of the measured heights, or the estimate when nothing was measured yet. */
export function meanHeight(measured: ReadonlyMap<string, number>): number {
  if (measured.size === 0) return ESTIMATED_ROW_PX;
  let sum = 0;
  for (const height of measured.values()) sum += height;
  return sum / measured.size;
}
