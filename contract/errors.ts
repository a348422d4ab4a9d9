/** Error body of every {api} call that fails. */
export interface ApiErrorBody {
  error: string;
  message: string;
}

/** OAuth error body of /connect/*; `invalid_username_or_password` marks wrong credentials. */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}
export const WRONG_CREDENTIALS = 'invalid_username_or_password';
