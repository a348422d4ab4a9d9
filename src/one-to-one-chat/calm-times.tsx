import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { WEEKDAYS, type CalmTimes } from '../../contract/calm-times.ts';
import { calmTimesKey } from '../../worker/client/one-to-one-chat.ts';
import type { LoadResult } from '../../worker/client/group-support.ts';
import { useApi, useDb } from '../data/index.ts';
import { Modal } from '../dialogs/modal.tsx';
import { linkButton } from '../styles/controls.ts';
import { calmestStretch, longestWait, shownHours } from './calm-times-summary.ts';
import * as s from './calm-times.styles.ts';
import { CHILD_CHAT_TEXTS } from './texts.ts';

const T = CHILD_CHAT_TEXTS.calm;

/** Today's weekday, Monday first (the device's own clock: the chart's hours are Stockholm's). */
const today = () => (new Date().getDay() + 6) % 7;

/**
 * 'När är det lugnast?' beside the queued chat's estimated wait: a link that opens the channel's
 * typical waits by weekday and hour (contract/calm-times.ts). The modal is the window's own, beside
 * its other modals: the status line it sits in is a paragraph, which may hold no dialog.
 */
export function CalmTimesLink({ onOpen }: { onOpen: () => void }) {
  return (
    <button type="button" className={linkButton} onClick={onOpen}>
      {T.link}
    </button>
  );
}

/** The calm times of `channel`; offline, the last copy the worker fetched, saying from when. */
export function CalmTimesModal(props: { open: boolean; onClose: () => void; channel: number | null }) {
  return (
    <Modal open={props.open} onClose={props.onClose} title={T.title} titleSize="small" colour="chat">
      {props.open && <CalmTimesView channel={props.channel} />}
    </Modal>
  );
}

function CalmTimesView({ channel }: { channel: number | null }) {
  const api = useApi();
  const db = useDb();
  const [result, setResult] = useState<LoadResult | null>(null);
  const copy = useLiveQuery(
    async () => (await db.calmTimes.get(calmTimesKey(channel))) ?? null,
    [db, channel],
  );
  useEffect(() => {
    let current = true;
    void api.loadCalmTimes(channel).then((r) => current && setResult(r));
    return () => {
      current = false;
    };
  }, [api, channel]);

  if (copy === undefined || (copy === null && result === null)) return <Spinner label={T.loading} />;
  if (copy === null) {
    return <p role="alert">{result && !result.ok && result.code === 'offline' ? T.offline : T.failed}</p>;
  }
  return (
    <>
      {result && !result.ok && <p className={s.note}>{T.lastCopy(formatDateAndClockTime(copy.drawnAt))}</p>}
      <CalmTimesChart waits={copy.waits} />
    </>
  );
}

/** The summary, the weekday choice and the day's hours as a table with a bar in each wait's cell. */
export function CalmTimesChart({ waits }: { waits: CalmTimes['waits'] }) {
  const [weekday, setWeekday] = useState(today);
  const calmest = calmestStretch(waits);
  const hours = shownHours(waits);
  const longest = longestWait(waits);
  return (
    <>
      <p>{T.intro}</p>
      <p className={s.summary}>
        {calmest ? T.summary(T.days[calmest.weekday]!, calmest.from, calmest.to) : T.tooLittle}
      </p>
      {hours.length > 0 && (
        <>
          <div role="group" aria-label={T.chooseDay} className={s.days}>
            {Array.from({ length: WEEKDAYS }, (_, day) => (
              <button
                key={day}
                type="button"
                aria-pressed={day === weekday}
                aria-label={T.dayNames[day]}
                onClick={() => setWeekday(day)}
              >
                {T.dayShort[day]}
              </button>
            ))}
          </div>
          <table className={s.table}>
            <caption>{T.caption(T.days[weekday]!)}</caption>
            <thead>
              <tr>
                <th scope="col">{T.hourHeading}</th>
                <th scope="col">{T.waitHeading}</th>
              </tr>
            </thead>
            <tbody>
              {hours.map((hour) => {
                const wait = waits[weekday]?.[hour] ?? null;
                return (
                  <tr key={hour}>
                    <th scope="row">{T.hour(hour)}</th>
                    <td>
                      {wait === null ? (
                        <span className={s.empty}>{T.tooLittle}</span>
                      ) : (
                        <span className={s.cell}>
                          <span
                            className={s.bar}
                            aria-hidden="true"
                            style={{ width: `${longest > 0 ? (50 * wait) / longest : 0}%` }}
                          />
                          {T.wait(wait)}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
