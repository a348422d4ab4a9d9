import { describe, expect, it } from 'vitest';
import { chatTextToHtml, escapeHtml } from '../../src/conversation-ui/chat-text.ts';
import { joinNames, typingText } from '../../src/conversation-ui/typing-names.ts';
import {
  descriptionHtml,
  megabytes,
  promoteFirstBold,
  textToHtml,
} from '../../src/conversation-ui/html-content.ts';

describe('chat text', () => {
  it('escapes html', () => {
    expect(escapeHtml(`<b>"a" & 'b'</b>`)).toBe('&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;');
    expect(chatTextToHtml('<script>x</script>')).toBe('&lt;script&gt;x&lt;/script&gt;');
  });

  it('turns urls into links opening in a new tab; www gets http://', () => {
    expect(chatTextToHtml('se www.bris.se.')).toBe(
      'se <a href="http://www.bris.se" target="_blank" rel="noopener noreferrer">www.bris.se</a>.',
    );
    expect(chatTextToHtml('https://a.se/x?y=1&z=2')).toBe(
      '<a href="https://a.se/x?y=1&amp;z=2" target="_blank" rel="noopener noreferrer">https://a.se/x?y=1&amp;z=2</a>',
    );
  });

  it('keeps line breaks', () => {
    expect(chatTextToHtml('a\nb')).toBe('a<br>b');
  });
});

describe('typing names', () => {
  it('joins with commas and och', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['Anna'])).toBe('Anna');
    expect(joinNames(['Anna', 'Bo'])).toBe('Anna och Bo');
    expect(joinNames(['Anna', 'Bo', 'Cilla'])).toBe('Anna, Bo och Cilla');
    expect(typingText(['Anna', 'Bo'])).toBe('Anna och Bo skriver');
    expect(typingText([])).toBe('');
  });
});

describe('html content', () => {
  it('turns the first bold element into a heading', () => {
    expect(promoteFirstBold('<p><strong>Om gruppen</strong></p><p><b>x</b></p>')).toBe(
      '<p><h3>Om gruppen</h3></p><p><b>x</b></p>',
    );
    expect(promoteFirstBold('<p>ingen</p>')).toBe('<p>ingen</p>');
  });

  it('turns text descriptions into html with line breaks', () => {
    expect(textToHtml('a <b>\nb')).toBe('a &lt;b&gt;<br>b');
    expect(descriptionHtml('<p>x</p>', 'text/html')).toBe('<p>x</p>');
    expect(descriptionHtml('x\ny', 'text/plain')).toBe('x<br>y');
    expect(megabytes(10 * 1024 * 1024)).toBe('10 MB');
  });
});
