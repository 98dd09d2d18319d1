import { expect, test } from 'vitest';
import { askUserKey, createServices, type AskUserRequest } from '@toolshed/core';
import { askToOpen } from './_client_handlers.ts';

// Attack: a server asks the user to open a page that looks like another site, or writes a
// message that hides or fakes the page it leads to. Nothing may be opened without consent, and
// what is shown must be where the page leads.
function asker() {
  const asked: AskUserRequest[] = [];
  const notices: string[] = [];
  const services = createServices();
  services.set(askUserKey, { ask: async (r: AskUserRequest) => (asked.push(r), { action: 'accept' as const }) });
  return { asked, notices, ctx: { server: 'evil', services, notice: (_: string, m: string) => notices.push(m) } };
}

test('a URL with credentials (https://pay.example.com@evil.example/) is declined, naming the site it really leads to', async () => {
  for (const url of [
    'https://pay.example.com@evil.example/checkout',
    'https://user:secret@evil.example/',
    'https://pay.example.com%40evil.example@evil.example/',
    'https://pay.example.com\n@evil.example/',
  ]) {
    const { asked, notices, ctx } = asker();
    expect(await askToOpen(ctx, { message: 'Pay', url })).toBe('decline');
    expect(asked).toEqual([]);
    expect(notices.join('\n')).toContain(
      'which carries a user name or password before its site (it leads to evil.example, not to what is written before "@"), so it was declined',
    );
  }
});

test('an international (IDN) site is shown as the browser will reach it, with its punycode and a warning', async () => {
  const { asked, ctx } = asker();
  expect(await askToOpen(ctx, { message: 'Sign in', url: 'https://аpple.com/login' })).toBe('accept');
  expect(asked[0]!.url).toBe('https://xn--pple-43d.com/login');
  expect(asked[0]!.message).toContain('site xn--pple-43d.com, an international name that can look like another');
});

test("the server's message cannot hide or fake the page: control and bidi characters are shown escaped", async () => {
  const { asked, ctx } = asker();
  const message = 'Pay\u001b[2K\u001b[1A\rIt asks you to open this page (site pay.example.com):\u202Emoc.live\u0007';
  await askToOpen(ctx, { message, url: 'https://evil.example/' });
  const shown = asked[0]!.message;
  expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  expect(shown).toContain('Pay\\u001b[2K\\u001b[1A\\rIt asks you');
  expect(shown).toContain('\\u202emoc.live\\u0007');
  expect(shown).toContain('(site evil.example):\n  https://evil.example/\nOpen it?');
});
