/** A field's error text, or null when the trimmed value is fine (SPEC §5 style: required, max). */
export function lengthError(
  value: string,
  max: number,
  texts: { required: string; tooLong: string },
): string | null {
  if (value.trim().length === 0) return texts.required;
  if (value.length > max) return texts.tooLong;
  return null;
}

/** react-hook-form's rules for a field checked by `lengthError`. */
export function lengthRules(max: number, texts: { required: string; tooLong: string }) {
  return { validate: (value: string) => lengthError(value, max, texts) ?? true };
}
