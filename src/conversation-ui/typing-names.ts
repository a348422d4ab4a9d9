/** SPEC §2 typing indicator: 'Anna', 'Anna och Bo', 'Anna, Bo och Cilla'. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} och ${names[names.length - 1]}`;
}

export function typingText(names: readonly string[]): string {
  return names.length ? `${joinNames(names)} skriver` : '';
}
