import { describe, expect, test } from 'vitest';
import { limitNesting } from './_nesting_limit.ts';

describe('limitNesting', () => {
  test('a page within the depth comes back as it is (the same string)', () => {
    const html = '<html><body><div><p>one<p>two<ul><li>a<li>b</ul></div><br><img src=x></body></html>';
    expect(limitNesting(html, 3)).toBe(html);
  });

  test('tags past the depth are left out, their text kept, and the page goes on after them', () => {
    expect(limitNesting('<div><div><div><b>x</b></div></div></div><i>after</i>', 2)).toBe(
      '<div><div>x</div></div><i>after</i>',
    );
  });

  test('unclosed paragraphs, list items and empty elements do not count as nesting', () => {
    const html = `<div>${'<p>para'.repeat(1000)}${'<li>item<br>'.repeat(1000)}</div>`;
    expect(limitNesting(html, 2)).toBe(html);
  });

  test('a div in a script, a style or a comment is not nesting', () => {
    const html = `<div><script>"${'<div>'.repeat(50)}"</script><style>${'<div>'.repeat(50)}</style><!--${'<div>'.repeat(50)}--></div>`;
    expect(limitNesting(html, 2)).toBe(html);
  });

  test('200 000 levels are cut to the depth in one pass', () => {
    const html = `${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}`;
    const cut = limitNesting(html, 512);
    expect(cut).toBe(`${'<div>'.repeat(512)}deep${'</div>'.repeat(512)}`);
  });
});

describe('limitNesting on broken tags', () => {
  test('a page of "<a " with no ">" anywhere is scanned once, and comes back as it is', () => {
    const html = '<a x="'.repeat(200_000);
    expect(limitNesting(html, 2)).toBe(html);
  });

  test('an unclosed comment or raw-text element ends the scan', () => {
    expect(limitNesting('<div><div><!-- <div><div><div>', 1)).toBe('<div><!-- <div><div><div>');
    // A script past the depth stays a script, so that its code is not read as text.
    expect(limitNesting('<div><div><script> <div><div>', 1)).toBe('<div><script> <div><div>');
  });
});
