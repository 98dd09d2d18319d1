import { describe, expect, test } from 'vitest';
import { htmlToMarkdown } from './html_to_markdown.ts';

describe('htmlToMarkdown', () => {
  test('htmlToMarkdown converts a fragment without Readability', async () => {
    const { markdown, usedReadability } = await htmlToMarkdown('<h1>Hi</h1><p>Hello <b>world</b></p>', { readability: false });
    expect(markdown).toBe('# Hi\n\nHello **world**');
    expect(usedReadability).toBe(false);
  });

  test('htmlToMarkdown falls back to the whole body, without navigation, when Readability finds no article', async () => {
    const html = '<html><head><title>Tiny</title></head><body><nav>menu</nav><p>Short page.</p><script>x()</script></body></html>';
    const { markdown, title, usedReadability } = await htmlToMarkdown(html);
    expect(usedReadability).toBe(false);
    expect(title).toBe('Tiny');
    expect(markdown).toBe('# Tiny\n\nShort page.');
  });

  test('htmlToMarkdown makes links absolute against the page URL and a <base>, and drops javascript: links', async () => {
    const html = '<html><head><base href="/docs/"></head><body><a href="intro">Intro</a> <a href="javascript:alert(1)">Bad</a> <img src="/logo.png" alt="logo"></body></html>';
    const { markdown } = await htmlToMarkdown(html, { url: 'https://example.com/start', readability: false });
    expect(markdown).toContain('[Intro](https://example.com/docs/intro)');
    expect(markdown).not.toContain('javascript:');
    expect(markdown).toContain('![logo](https://example.com/logo.png)');
  });

  test('htmlToMarkdown writes tables as GFM tables and escapes pipes in cells', async () => {
    const { markdown } = await htmlToMarkdown('<table><tr><th>a|b</th><th>c</th></tr><tr><td>1</td></tr></table>', { readability: false });
    expect(markdown).toBe('| a\\|b | c |\n| --- | --- |\n| 1 |  |');
  });
});
