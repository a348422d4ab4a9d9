import { Link } from 'wouter';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, errorText, mutedText } from '../ui/styles.ts';
import { listItem, plainList, screen, linkButton } from './group-leader.styles.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { LedSeries, ValueList } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';
import { useFocusOnMount } from './use-focus-on-mount.ts';
import { seriesPath } from './paths.ts';

/** The groups and series the leader leads. */
export function SeriesList() {
  const series = useStaffGet<ValueList<LedSeries>>('/series');
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className={screen} aria-labelledby="gl-series-heading">
      <h1 id="gl-series-heading" ref={heading} tabIndex={-1}>
        {T.seriesHeading}
      </h1>
      {series.error && (
        <p className={errorText} role="alert">
          {series.error}
        </p>
      )}
      {!series.data && series.loading && <Spinner label={T.loading} />}
      {series.data?.value.length === 0 && <p className={mutedText}>{T.noSeries}</p>}
      {series.data && series.data.value.length > 0 && (
        <ul className={plainList}>
          {series.data.value.map((s) => (
            <li key={s.id} className={`${card} ${listItem}`}>
              <div>
                <h2>{s.groupName}</h2>
                <p className={mutedText} style={{ margin: 0 }}>
                  {s.subject} · {T.participantsCount(s.participantsCount)}
                </p>
              </div>
              <Link href={seriesPath(s.id)} className={`${button} ${linkButton}`}>
                {T.open}
                <span className="visually-hidden"> {s.groupName}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
