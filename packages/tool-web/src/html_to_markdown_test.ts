import { describe, expect, test } from 'vitest';
import { htmlToMarkdown } from './html_to_markdown.ts';

describe('htmlToMarkdown', () => {
  test('htmlToMarkdown converts a fragment without Readability', async () => {
    const { markdown, usedReadability } = await htmlToMarkdown('<h1>Hi</h1><p>Hello <b>world</b></p>', {
      readability: false,
    });
    expect(markdown).toBe('# Hi\n\nHello **world**');
    expect(usedReadability).toBe(false);
  });

  test('htmlToMarkdown falls back to the whole body, without navigation, when Readability finds no article', async () => {
    const html =
      '<html><head><title>Tiny</title></head><body><nav>menu</nav><p>Short page.</p><script>x()</script></body></html>';
    const { markdown, title, usedReadability } = await htmlToMarkdown(html);
    expect(usedReadability).toBe(false);
    expect(title).toBe('Tiny');
    expect(markdown).toBe('# Tiny\n\nShort page.');
  });

  test('htmlToMarkdown makes links absolute against the page URL and a <base>, and drops javascript: links', async () => {
    const html =
      '<html><head><base href="/docs/"></head><body><a href="intro">Intro</a> <a href="javascript:alert(1)">Bad</a> <img src="/logo.png" alt="logo"></body></html>';
    const { markdown } = await htmlToMarkdown(html, { url: 'https://example.com/start', readability: false });
    expect(markdown).toContain('[Intro](https://example.com/docs/intro)');
    expect(markdown).not.toContain('javascript:');
    expect(markdown).toContain('![logo](https://example.com/logo.png)');
  });

  test('htmlToMarkdown writes tables as GFM tables and escapes pipes in cells', async () => {
    const { markdown } = await htmlToMarkdown('<table><tr><th>a|b</th><th>c</th></tr><tr><td>1</td></tr></table>', {
      readability: false,
    });
    expect(markdown).toBe('| a\\|b | c |\n| --- | --- |\n| 1 |  |');
  });

  test('htmlToMarkdown drops scripts and styles of a page over its HTML limit and converts only the first part', async () => {
    const html =
      `<html><head><title>Big</title><style>${'x{}'.repeat(500)}</style></head><body><p>first words</p>` +
      `<script>${'var a = 1;'.repeat(500)}</script><scripts-are-content>kept tag</scripts-are-content>` +
      `${'<p>filler paragraph</p>'.repeat(200)}<p>last words</p></body></html>`;
    const { markdown, convertedHtmlChars } = await htmlToMarkdown(html, { readability: false, maxHtmlChars: 3000 });
    expect(convertedHtmlChars).toBe(3000);
    expect(markdown).toContain('first words');
    expect(markdown).toContain('kept tag');
    expect(markdown).toContain('filler paragraph');
    expect(markdown).not.toContain('last words');
    expect(markdown).not.toContain('var a');
    const whole = await htmlToMarkdown(html, { readability: false });
    expect(whole.convertedHtmlChars).toBeUndefined();
    expect(whole.markdown).toContain('last words');
  });

  test('htmlToMarkdown strips many script and style blocks in one linear pass and rejects a bad limit', async () => {
    // 200 000 style blocks before a single script: a search for the next <script> from every
    // style block would scan the 3 MB page 200 000 times.
    const html = `<html><body><p>before</p>${'<style></style>'.repeat(200_000)}<p>middle</p><script>x()</script><p>after</p><script>`;
    const { markdown, convertedHtmlChars } = await htmlToMarkdown(html, { readability: false, maxHtmlChars: 1000 });
    expect(markdown).toBe('before\n\nmiddle\n\nafter');
    expect(convertedHtmlChars).toBeUndefined();
    await expect(htmlToMarkdown('<p>x</p>', { maxHtmlChars: 0 })).rejects.toThrow(RangeError);
  });
});

describe('htmlToMarkdown on a page nested deeper than any real one', () => {
  test('200 000 nested <div>s (2.2 MB) keep their text and convert at once (the parser took 46 s, then Readability and turndown overflowed the stack)', async () => {
    const depth = 200_000;
    const html = `<html><body><h1>Top</h1>${'<div>'.repeat(depth)}<p>deep <b>text</b></p>${'</div>'.repeat(depth)}<p>after</p></body></html>`;
    // Past the depth the tags go (the bold too); the words stay, and so does what follows.
    expect((await htmlToMarkdown(html)).markdown).toContain('deep text');
    const { markdown } = await htmlToMarkdown(html, { readability: false });
    expect(markdown).toContain('deep text');
    expect(markdown).toContain('after');
  }, 30_000);

  test('formatting a few hundred levels down is kept', async () => {
    const html = `<html><body>${'<div>'.repeat(300)}<p>keep <b>bold</b></p>${'</div>'.repeat(300)}</body></html>`;
    expect((await htmlToMarkdown(html, { readability: false })).markdown).toBe('keep **bold**');
  });
});
