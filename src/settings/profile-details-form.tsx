import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useConfig } from '../config/runtime-config.tsx';
import { birthYears } from '../create-account/birth-years.ts';
import { CREATE_ACCOUNT_TEXTS } from '../create-account/texts.ts';
import { useApi } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { FormSubmit } from '../login/form-submit.tsx';
import { field } from '../styles/controls.ts';
import { SETTINGS_TEXTS as T } from './texts.ts';
import { choices } from '../create-account/create-account.styles.ts';
import { form } from '../login/login-form.styles.ts';
import { GENDERS, type Gender } from '../../contract/profile.ts';

interface Values {
  birthYear: string;
  gender: Gender | '';
}

/**
 * The birth year and gender the child gave at registration, to change (SPEC §7 contacts update):
 * they label the child's messages for the counsellor ('Tjej, 14 år'). Saved at once, not queued:
 * offline it says so and keeps what was chosen in the form.
 */
export function ProfileDetailsForm() {
  const api = useApi();
  const { propertyIds } = useConfig();
  const profile = useProfile();
  const ids = { birthYear: useId(), gender: useId(), failure: useId() };
  const [failure, setFailure] = useState<string | null>(null);
  const stored = {
    birthYear: profile?.properties[propertyIds.birthYear] ?? '',
    gender: (profile?.properties[propertyIds.gender] ?? '') as Gender | '',
  };
  const { register, handleSubmit, formState } = useForm<Values>({ values: stored });
  const years = birthYears(stored.birthYear);

  const submit = handleSubmit(async ({ birthYear, gender }) => {
    setFailure(null);
    try {
      const result = await api.updateProfile({ birthYear, gender });
      if (result.ok) showToast(T.detailsSaved, { kind: 'success' });
      else setFailure(result.code === 'offline' ? T.offline : T.failed);
    } catch {
      setFailure(T.failed);
    }
  });

  return (
    <form className={form} onSubmit={submit} noValidate aria-label={T.aboutYou}>
      <p>{T.aboutYouText}</p>
      <div className={field}>
        <label htmlFor={ids.birthYear}>{CREATE_ACCOUNT_TEXTS.birthYear}</label>
        <select id={ids.birthYear} {...register('birthYear')}>
          <option value="">{CREATE_ACCOUNT_TEXTS.birthYearChoose}</option>
          {years.map((year) => (
            <option key={year} value={String(year)}>
              {year}
            </option>
          ))}
        </select>
      </div>
      <fieldset className={choices}>
        <legend>{CREATE_ACCOUNT_TEXTS.gender}</legend>
        {GENDERS.map((gender) => (
          <label key={gender}>
            <input type="radio" value={gender} {...register('gender')} />
            {CREATE_ACCOUNT_TEXTS.genders[gender]}
          </label>
        ))}
      </fieldset>
      <FormSubmit
        failure={failure}
        failureId={ids.failure}
        busy={formState.isSubmitting}
        label={T.saveDetails}
        busyLabel={T.savingDetails}
      />
    </form>
  );
}
