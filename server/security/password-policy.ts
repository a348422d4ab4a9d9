import { ApiError } from '../errors.ts';

import { MIN_PASSWORD_LENGTH } from '../../contract/limits.ts';

/**
 * Swedish passwords the English-language list does not hold; checked as the password's letters
 * with digits and symbols stripped, so 'Sommar2024!' and 'lösenord1' count too.
 */
const SWEDISH_WORDS = [
  'losenord',
  'lösenord',
  'hejhej',
  'hejsan',
  'sommar',
  'vinter',
  'fotboll',
  'sverige',
  'stockholm',
  'goteborg',
  'göteborg',
  'malmo',
  'malmö',
  'kärlek',
  'karlek',
  'mamma',
  'pappa',
  'hemlig',
  'hemligt',
  'qwerty',
  'asdfgh',
  'password',
  'kurator',
  'stodlinjen',
  'stödlinjen',
];

let common: Promise<Set<string>> | null = null;
/** The 49 000 most common passwords (zxcvbn-ts' list, MIT), loaded once on first use. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())),
  );
  return common;
}

/** Runs of the same character, or of consecutive characters up or down ('12345678', 'abcdefgh'). */
function isTrivialSequence(value: string): boolean {
  const codes = [...value].map((c) => c.codePointAt(0)!);
  const steps = new Set(codes.slice(1).map((c, i) => c - codes[i]!));
  return steps.size === 1 && [...steps].every((step) => Math.abs(step) <= 1);
}

/**
 * Refuses what a guesser tries first: blank or short passwords, the most common ones, a run or
 * sequence of one character, the username itself, or a common Swedish word dressed in digits.
 * Throws `weak_password` (too short) or `common_password`, both with a Swedish message.
 */
export async function checkNewPassword(password: string, username?: string | null): Promise<void> {
  // Eight characters that are not blank: spaces between words are fine, spaces instead of them not.
  if ([...password.replace(/\s/gu, '')].length < MIN_PASSWORD_LENGTH) throw new ApiError('weak_password');
  const visible = password.trim();
  const lower = visible.toLowerCase().normalize('NFC');
  const letters = lower.replace(/[^\p{L}]/gu, '');
  const refused =
    (await commonPasswords()).has(lower) ||
    isTrivialSequence(lower) ||
    (!!username && lower.includes(username.toLowerCase())) ||
    (letters.length > 0 && SWEDISH_WORDS.includes(letters)) ||
    (letters.length === 0 && new Set(lower).size <= 3);
  if (refused) throw new ApiError('common_password');
}
