import { describe, expect, it } from 'vitest';
import {
  estimateWait,
  waitFigure,
  type QueueHistoryRow,
} from '../../../server/conversations/wait-estimate.ts';

/** The estimate of a queued chat's wait, from a simulated hour of queue traffic with a known answer. */
const NOW = new Date('2026-03-10T14:00:00.000Z');
const MINUTE = 60_000;
const at = (minutesBeforeNow: number) => new Date(NOW.getTime() - minutesBeforeNow * MINUTE).toISOString();

/** A chat that arrived `arrived` minutes ago and was taken `waited` minutes later (never, with null). */
function chat(id: number, arrived: number, waited: number | null): QueueHistoryRow {
  const takenAt = waited === null ? null : at(arrived - waited);
  return { id, loggedDate: at(arrived), takenAt, leftAt: takenAt };
}

/**
 * An hour in which 12 chats arrive, three at a time a minute apart every 15 minutes, and each is
 * taken after exactly 4 minutes per place it joined at: the first of a group at place 1 after 4
 * minutes, the second at place 2 after 8, the third at place 3 after 12 (the group before has gone).
 */
function simulatedHour(): QueueHistoryRow[] {
  const rows: QueueHistoryRow[] = [];
  let id = 1;
  // Groups arriving 62, 47, 32 and 17 minutes ago: all twelve are taken within the last hour.
  for (const start of [62, 47, 32, 17]) {
    for (let place = 1; place <= 3; place += 1) rows.push(chat(id++, start - (place - 1), 4 * place));
  }
  return rows;
}

describe('the estimated wait of a queued chat', () => {
  it('is the place times the mean wait per place of the hour: 12 minutes at place 3', () => {
    const figure = waitFigure(simulatedHour(), NOW);
    expect(figure).toEqual({ msPerPlace: 4 * MINUTE, largestPlace: 3, samples: 12 });
    expect(estimateWait(figure, 1)).toEqual({ minutes: 4 });
    expect(estimateWait(figure, 3)).toEqual({ minutes: 12 });
  });

  it('rounds up to whole minutes, and is at least one minute', () => {
    const quick = [chat(1, 30, 0.1), chat(2, 20, 0.1), chat(3, 10, 0.1)];
    expect(estimateWait(waitFigure(quick, NOW), 1)).toEqual({ minutes: 1 });
    const odd = [chat(1, 30, 2.5), chat(2, 20, 2.5), chat(3, 10, 2.5)];
    expect(estimateWait(waitFigure(odd, NOW), 1)).toEqual({ minutes: 3 });
  });

  it('has no estimate with fewer than 3 chats taken in the last hour', () => {
    expect(waitFigure([], NOW)).toBeNull();
    expect(estimateWait(waitFigure([chat(1, 30, 4), chat(2, 20, 4)], NOW), 1)).toBeNull();
    // Chats still waiting or left without a counsellor are no samples.
    const unserved: QueueHistoryRow = { ...chat(3, 15, null), leftAt: at(10) };
    expect(waitFigure([chat(1, 30, 4), chat(2, 20, 4), unserved, chat(4, 5, null)], NOW)).toBeNull();
  });

  it('says nothing beyond the places the hour saw, and "more than 30 minutes" above 30 minutes', () => {
    const figure = waitFigure(simulatedHour(), NOW);
    expect(estimateWait(figure, 4)).toBeNull();
    const slow = [chat(1, 50, 11), chat(2, 35, 11), chat(3, 20, 11)];
    expect(estimateWait(waitFigure(slow, NOW), 1)).toEqual({ minutes: 11 });
    // Two children waiting together at 11 minutes a place would be 22; three apart: 33.
    const slowQueue = [chat(1, 50, 11), chat(2, 49, 22), chat(3, 48, 33)];
    expect(estimateWait(waitFigure(slowQueue, NOW), 3)).toEqual({ moreThan: 30 });
  });

  it('follows a recorded hour of short waits: seconds at place 1 say nothing of 30 minutes at place 2', () => {
    // Twenty chats, one every three minutes, each taken within 5 to 24 seconds: nobody ever waited
    // behind another.
    const hour = Array.from({ length: 20 }, (_, i) => chat(i + 1, 58 - 3 * i, (5 + i) / 60));
    const figure = waitFigure(hour, NOW);
    expect(figure?.largestPlace).toBe(1);
    expect(estimateWait(figure, 1)).toEqual({ minutes: 1 });
    // Second in the queue: the hour never saw a queue, so no estimate rather than a wrong one.
    expect(estimateWait(figure, 2)).toBeNull();
  });

  it('ignores chats taken more than an hour ago, though they still count in the places of others', () => {
    const old = [chat(1, 120, 4), chat(2, 100, 4), chat(3, 80, 4)];
    expect(waitFigure(old, NOW)).toBeNull();
    // The one taken 61 minutes ago is no sample; it was still waiting when the second arrived.
    const rows = [chat(1, 70, 9), chat(2, 65, 8), chat(3, 40, 4), chat(4, 20, 4)];
    expect(waitFigure(rows, NOW)).toEqual({ msPerPlace: 4 * MINUTE, largestPlace: 2, samples: 3 });
  });

  it('counts a chat still waiting (no leaving time) in the place of each one after it', () => {
    const rows = [chat(1, 50, null), chat(2, 40, 8), chat(3, 30, 8), chat(4, 20, 8)];
    // Each of 2..4 arrived with the first still waiting: place 2, 4 minutes a place.
    expect(waitFigure(rows, NOW)).toEqual({ msPerPlace: 4 * MINUTE, largestPlace: 2, samples: 3 });
  });
});
