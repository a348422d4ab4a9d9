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
 * Who a child might take a name for: the provider, the staff roles in Swedish and English, and the
 * authorities and organisations a child trusts. A child's name appears beside their messages in a
 * group chat and on the Peers board; none may pass for a counsellor, a leader or the police there.
 * Found anywhere in a name (so 'Sara (ledare)' and 'Ledare Sara' both are).
 */
const STAFF_TITLES = [
  'kurator',
  'stodlinjen',
  'ledare',
  'ledning',
  'admin',
  'moderator',
  'personal',
  'system',
  'support',
  'counsel',
  'chattvard',
  'volontar',
  'radgivare',
  'socialtjanst',
  'socialsekreterare',
];

/** Short titles, refused only as a word of their own (or with Swedish 'the'): 'BRIS', 'Polisen'. */
const STAFF_WORDS = ['bris', 'polis'];
const DEFINITE = ['', 'en', 'et'];

/** Strips invisible and direction-changing characters, normalises (NFKC) and collapses spaces. */
export function cleanDisplayName(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/** '1' reads as 'l' in 'Ko1lega' and as 'i' in 'Adm1n': a name is compared both ways. */
const ONE_AS_I: Record<string, string> = { '1': 'i' };

/**
 * The name's words as a comparison sees them: lower case, no diacritics, letters only, with
 * look-alikes mapped either by how they look or by how they read.
 */
function skeletonWords(name: string, map: Record<string, string> = CONFUSABLES): string[] {
  return [...name.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')]
    .map((ch) => map[ch] ?? CONFUSABLES[ch] ?? ch)
    .join('')
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
}

export function looksLikeStaff(name: string, providerName: string): boolean {
  const provider = skeletonWords(providerName).join('');
  const titles = [...STAFF_TITLES, provider].filter((t) => t.length > 0);
  const readings = [CONFUSABLES, ONE_AS_I, TRANSLITERATION].map((map) => skeletonWords(name, map));
  return readings.some((words) => {
    // Run together, so that 'K u r a t o r' and 'Mod\u200Berator' are one word.
    const whole = words.join('');
    if (titles.some((t) => whole.includes(t))) return true;
    return [whole, ...words].some((word) =>
      STAFF_WORDS.some((t) => DEFINITE.some((ending) => word === t + ending)),
    );
  });
}

/** A cleaned name that is no staff title, or `name_not_allowed` (Swedish message) / `validation`. */
export function acceptDisplayName(name: string, providerName: string, maxLength = 100): string {
  const cleaned = cleanDisplayName(name);
  if (cleaned.length === 0 || [...cleaned].length > maxLength) throw new ApiError('validation');
  if (looksLikeStaff(cleaned, providerName)) throw new ApiError('name_not_allowed');
  return cleaned;
}
