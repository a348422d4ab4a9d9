import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { APP_VARIANTS } from '../../contract/variant.ts';
import { MESSAGE_AUTHOR_KINDS } from '../../contract/conversations.ts';

/**
 * The lint rules that refuse a gate on a variant's name or an author kind's name take the names from
 * contract/: a variant added there is refused in a name comparison at once, with no list to keep
 * in step by hand.
 */
const eslint = new ESLint();

async function messages(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'src/app.tsx' });
  return result!.messages.map((m) => m.message);
}

describe('the name rules of eslint.config.js', () => {
  it('keep no list of variants or author kinds of their own', () => {
    const config = readFileSync('eslint.config.js', 'utf8');
    for (const names of [APP_VARIANTS, MESSAGE_AUTHOR_KINDS]) {
      // A hand-written alternation ('Barn|Gruppstod|...') of any two of them.
      const alternation = new RegExp(`\\b(${names.join('|')})\\|(${names.join('|')})\\b`, 'i');
      expect(config).not.toMatch(alternation);
    }
  });

  it('refuse a comparison with every variant contract/ names, in either spelling, and every author kind', async () => {
    for (const variant of APP_VARIANTS) {
      expect(await messages(`export const a = (v: string) => v === '${variant}';\n`)).toContain(
        "Ask the variant's features (contract/variant.ts), not its name.",
      );
      expect(
        await messages(
          `export const b = (c: { variant: string }) => c.variant === '${variant.toLowerCase()}';\n`,
        ),
      ).toContain("Ask the variant's features (contract/variant.ts), not its name.");
    }
    for (const kind of MESSAGE_AUTHOR_KINDS) {
      expect(
        (
          await messages(`export const c = (m: { authorKind: string }) => m.authorKind === '${kind}';\n`)
        ).some((m) => m.startsWith('Ask the author kind')),
      ).toBe(true);
    }
  });
});
