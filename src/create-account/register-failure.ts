import type { RegisterError } from '../../worker/client/account.ts';
import { CREATE_ACCOUNT_TEXTS as T } from './texts.ts';

export type { RegisterError };

/** A refusal the person can act on is told beside its field; any other under the form. */
export interface RegisterFailure {
  field: 'username' | 'password' | null;
  message: string;
}

export function registerFailure(error: RegisterError): RegisterFailure {
  switch (error) {
    case 'username_taken':
    case 'name_not_allowed':
      return { field: 'username', message: T.errors[error] };
    case 'common_password':
      return { field: 'password', message: T.errors[error] };
    default:
      return { field: null, message: T.errors[error] };
  }
}
