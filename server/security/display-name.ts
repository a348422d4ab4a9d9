import { ApiError } from '../errors.ts';

/**
 * Characters that change how text around them is shown without being seen themselves: controls
 * (Cc) and format characters (Cf) - bidi embeddings, overrides, isolates and marks, zero-width
 * joiners and spaces, the BOM, the Arabic letter mark.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/** Look-alikes a name could use to pass for a title: digits, symbols, Cyrillic and Greek letters. */
const CONFUSABLES: Record<string, string> = {
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  $: 's',
  '@': 'a',
  '|': 'l',
  '!': 'i',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  к: 'k',
  т: 't',
  ο: 'o',
  α: 'a',
  ι: 'i',
  κ: 'k',
  ρ: 'p',
};

/** How a Cyrillic name reads aloud: 'куратор' is 'kurator' to someone who reads it. */
const TRANSLITERATION: Record<string, string> = Object.fromEntries(
  [...'абвгдезийклмнопрстуфхцыэ'].map((ch, i) => [ch, 'abvgdezijklmnoprstufhcye'[i]!]),
);

/**
 * Who a child might take a name for: the provider and the staff roles. A child's name appears beside
 * their messages in a group chat; none may pass for a counsellor or a group leader there.
 */
const STAFF_TITLES = [
  'kurator',
  'stodlinjen',
  'gruppledare',
  'gruppledning',
  'handledare',
  'admin',
  'moderator',
  'personal',
  'system',
  'support',
];

/** Strips invisible and direction-changing characters, normalises (NFKC) and collapses spaces. */
export function cleanDisplayName(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/**
 * The name as a comparison sees it: lower case, no diacritics, letters only, with look-alikes
 * mapped either by how they look or by how they read.
 */
function skeleton(name: string, map: Record<string, string> = CONFUSABLES): string {
  return [...name.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')]
    .map((ch) => map[ch] ?? CONFUSABLES[ch] ?? ch)
    .join('')
    .replace(/[^a-z]/g, '');
}

export function looksLikeStaff(name: string, providerName: string): boolean {
  const titles = [...STAFF_TITLES, skeleton(providerName)].filter((t) => t.length > 0);
  return [skeleton(name), skeleton(name, TRANSLITERATION)].some((s) => titles.some((t) => s.includes(t)));
}

/** A cleaned name that is no staff title, or `name_not_allowed` (Swedish message) / `validation`. */
export function acceptDisplayName(name: string, providerName: string, maxLength = 100): string {
  const cleaned = cleanDisplayName(name);
  if (cleaned.length === 0 || [...cleaned].length > maxLength) throw new ApiError('validation');
  if (looksLikeStaff(cleaned, providerName)) throw new ApiError('name_not_allowed');
  return cleaned;
}
