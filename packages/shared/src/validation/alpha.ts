/**
 * The alpha-family patterns of vee-validate 2.2.15, per locale.
 * Latin locales add their letters to A–Z; ru, uk, ar and fa have no A–Z. All are
 * case-insensitive except ar and fa.
 */
const ARABIC = 'ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي\u064B\u064C\u064D\u064E\u064F\u0650\u0651\u0652\u0670';
const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

const LETTERS: Record<string, string> = {
  en: 'A-Z',
  cs: 'A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ',
  da: 'A-ZÆØÅ',
  de: 'A-ZÄÖÜß',
  es: 'A-ZÁÉÍÑÓÚÜ',
  fr: 'A-ZÀÂÆÇÉÈÊËÏÎÔŒÙÛÜŸ',
  it: 'A-Z\u00C0-\u00FF',
  lt: 'A-ZĄČĘĖĮŠŲŪŽ',
  nl: 'A-ZÉËÏÓÖÜ',
  hu: 'A-ZÁÉÍÓÖŐÚÜŰ',
  pl: 'A-ZĄĆĘŚŁŃÓŻŹ',
  pt: 'A-ZÃÁÀÂÇÉÊÍÕÓÔÚÜ',
  ru: 'А-ЯЁ',
  sk: 'A-ZÁÄČĎÉÍĹĽŇÓŔŠŤÚÝŽ',
  sr: 'A-ZČĆŽŠĐ',
  sv: 'A-ZÅÄÖ',
  tr: 'A-ZÇĞİıÖŞÜ',
  uk: 'А-ЩЬЮЯЄІЇҐ',
  ar: ARABIC,
  az: 'A-ZÇƏĞİıÖŞÜ',
  fa: `${ARABIC}پژگچکی`,
};

export type AlphaKind = 'alpha' | 'alpha_spaces' | 'alpha_num' | 'alpha_dash';

function build(kind: AlphaKind): Record<string, RegExp> {
  const out: Record<string, RegExp> = {};
  for (const [locale, letters] of Object.entries(LETTERS)) {
    const flags = locale === 'ar' || locale === 'fa' ? '' : 'i';
    const digits = locale === 'ar' || locale === 'fa' ? `${ARABIC_DIGITS}0-9` : '0-9';
    const set =
      kind === 'alpha'
        ? letters
        : kind === 'alpha_spaces'
          ? `${letters}\\s`
          : kind === 'alpha_num'
            ? `${digits}${letters}`
            : `${digits}${letters}_-`;
    // The original's Danish alpha_num pattern has no repetition: exactly one character.
    const repeat = kind === 'alpha_num' && locale === 'da' ? '' : '*';
    out[locale] = new RegExp(`^[${set}]${repeat}$`, flags);
  }
  return out;
}

const PATTERNS: Record<AlphaKind, Record<string, RegExp>> = {
  alpha: build('alpha'),
  alpha_spaces: build('alpha_spaces'),
  alpha_num: build('alpha_num'),
  alpha_dash: build('alpha_dash'),
};

/**
 * Without a locale the value may match any one locale's pattern; an unknown locale falls back to
 * en; array elements are checked with no locale (the original drops it for arrays).
 */
export function alphaTest(kind: AlphaKind, value: unknown, locale: unknown): boolean {
  const patterns = PATTERNS[kind];
  if (Array.isArray(value)) return value.every((v) => alphaTest(kind, v, undefined));
  const text = String(value);
  if (locale === undefined || locale === null || locale === '') return Object.values(patterns).some((re) => re.test(text));
  return (patterns[String(locale)] ?? patterns.en ?? /^$/).test(text);
}
