/** The error body of every failed {api} call: a stable code and a Swedish text (server/errors.ts). */
export interface ApiErrorBody {
  error: string;
  message: string;
}

export const WRONG_CREDENTIALS = 'invalid_username_or_password';
