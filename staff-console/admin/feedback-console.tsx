import { FEEDBACK_ANSWERS, type FeedbackSummary, type FeedbackWeek } from '../../contract/chat-feedback.ts';
import { useStaffGet } from '../api/use-staff-get.ts';
import { button, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import * as s from './feedback.styles.ts';
import { FEEDBACK_TEXTS as T } from './texts.ts';

/**
 * The administrator's 'Hur kändes chatten?' (docs/decisions.md "Heard after the chat"): per channel
 * and week a bar of the answers' shares, with each count and share in words beside it, and the free
 * texts by week. Nothing on it names a chat or a child: the server keeps nothing that could.
 */
export function FeedbackConsole() {
  const { data, error, reload } = useStaffGet<FeedbackSummary>('/feedback');
  return (
    <div className={s.page}>
      <div>
        <h1>{T.heading}</h1>
        <p className={mutedText}>{T.intro}</p>
      </div>
      {error && (
        <p className={errorText} role="alert">
          {error}{' '}
          <button type="button" className={`${button} ${secondaryButton}`} onClick={reload}>
            {T.retry}
          </button>
        </p>
      )}
      {!data && !error && <p role="status">{T.loading}</p>}
      {data && <Figures summary={data} />}
    </div>
  );
}

function Figures({ summary }: { summary: FeedbackSummary }) {
  const channels = [...new Set(summary.weeks.map((w) => w.channel))];
  return (
    <>
      {summary.weeks.length === 0 && <p>{T.none}</p>}
      {channels.map((channel) => {
        const rows = summary.weeks.filter((w) => w.channel === channel);
        const name = rows[0]?.channelName ?? T.noChannel;
        return (
          <section key={String(channel)} aria-label={name}>
            <h2>{name}</h2>
            <ul className={s.weeks}>
              {rows.map((row) => (
                <WeekBar key={row.week} row={row} />
              ))}
            </ul>
          </section>
        );
      })}
      <section aria-labelledby="feedback-texts">
        <h2 id="feedback-texts">{T.textsHeading}</h2>
        {summary.texts.length === 0 ? (
          <p>{T.noTexts}</p>
        ) : (
          <ul className={s.texts}>
            {summary.texts.map((t, i) => (
              <li key={i}>
                <span className={mutedText}>
                  {T.week(t.week)} · {t.channelName ?? T.noChannel}
                </span>
                <br />
                {t.text}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function WeekBar({ row }: { row: FeedbackWeek }) {
  const total = FEEDBACK_ANSWERS.reduce((n, a) => n + row.counts[a], 0);
  const percent = (n: number) => (total === 0 ? 0 : Math.round((100 * n) / total));
  return (
    <li className={s.week}>
      <h3>
        {T.week(row.week)} · {T.answers(total)}
      </h3>
      <div className={s.bar} aria-hidden="true">
        {FEEDBACK_ANSWERS.filter((a) => row.counts[a] > 0).map((a) => (
          <span
            key={a}
            style={{ width: `${(100 * row.counts[a]) / total}%`, background: s.ANSWER_COLOURS[a] }}
          />
        ))}
      </div>
      <ul className={s.legend}>
        {FEEDBACK_ANSWERS.map((a) => (
          <li key={a}>
            <span className={s.swatch} style={{ background: s.ANSWER_COLOURS[a] }} aria-hidden="true" />
            {T.share(T.answer[a], row.counts[a], percent(row.counts[a]))}
          </li>
        ))}
      </ul>
    </li>
  );
}
