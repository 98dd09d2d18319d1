// What defineFamily takes and gives, checked by `pnpm typecheck` (this file is in the package's
// tsconfig): each `expectTypeOf` is a type assertion and each `@ts-expect-error` a misuse that
// must not compile. defineFamily is not generic: typed tools go in as `AnyTool` and the settings
// schema as `z.ZodType`, so what a family gets back is the erased types, and `setup` sees its
// settings as `unknown` until it parses them with its own schema (as the lsp family does).
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { defineFamily, type Family, type FamilyDef, type FamilySetupApi } from './family.ts';
import type { FamilySettingsDef } from './settings/family_settings.ts';
import { buildTool, type AnyTool, type Tool } from './tool.ts';

const echoInput = z.object({ text: z.string() });
const echo = buildTool({
  name: 'Echo',
  description: 'Returns its text.',
  inputSchema: echoInput,
  isReadOnly: () => true,
  async call({ text }) {
    return { data: text };
  },
});
const settingsSchema = z.object({ servers: z.record(z.string(), z.object({ command: z.string() })) });

describe('defineFamily', () => {
  test('typed tools go in as they are and come out as AnyTool', () => {
    expectTypeOf(echo).toEqualTypeOf<Tool<typeof echoInput, string>>();
    const family = defineFamily({ name: 'echo', version: '1.0.0', tools: [echo] });
    expectTypeOf(family).toEqualTypeOf<Family>();
    expectTypeOf(family.tools).toEqualTypeOf<readonly AnyTool[] | undefined>();
    expectTypeOf(family.loadTools).returns.toEqualTypeOf<Promise<readonly AnyTool[]>>();
    expectTypeOf(family.name).toEqualTypeOf<string>();
    // A lazy family: a loader (as `tools` or `load`) and a manifest.
    const lazy = defineFamily({
      name: 'lazy',
      version: '1.0.0',
      load: async () => [echo],
      manifest: [{ name: 'Echo', description: 'Returns its text.' }],
    });
    expectTypeOf(lazy).toEqualTypeOf<Family>();
    defineFamily({ name: 'lazy', version: '1.0.0', tools: async () => [echo], manifest: [] });
  });

  test('setup gets the session api, with the settings unknown until the family parses them', () => {
    const family = defineFamily({
      name: 'servers',
      version: '1.0.0',
      tools: [echo],
      settings: { key: 'servers', schema: settingsSchema, help: 'See the README.' },
      setup(api) {
        expectTypeOf(api).toEqualTypeOf<FamilySetupApi>();
        expectTypeOf(api.settings).toBeUnknown();
        const settings = settingsSchema.optional().parse(api.settings);
        expectTypeOf(settings).toEqualTypeOf<{ servers: Record<string, { command: string }> } | undefined>();
        api.onClose(async () => {});
      },
    });
    expectTypeOf(family.settings).toEqualTypeOf<FamilySettingsDef | undefined>();
    expectTypeOf<NonNullable<Family['settings']>['schema']>().toEqualTypeOf<z.ZodType>();
    expectTypeOf(family.setup).toEqualTypeOf<FamilyDef['setup']>();
  });

  test('misuse does not compile', () => {
    // Never called: the point is only that each marked line is a type error.
    const misuses = () => [
      defineFamily({
        name: 'x',
        version: '1.0.0',
        // @ts-expect-error a tool definition must go through buildTool first
        tools: [{ name: 'Echo', description: 'Returns its text.', inputSchema: echoInput }],
      }),
      // @ts-expect-error a family needs a version
      defineFamily({ name: 'x', tools: [echo] }),
      defineFamily({
        name: 'x',
        version: '1.0.0',
        load: async () => [echo],
        // @ts-expect-error a manifest entry needs its one-line description
        manifest: [{ name: 'Echo' }],
      }),
      defineFamily({
        name: 'x',
        version: '1.0.0',
        tools: [echo],
        // @ts-expect-error the settings schema is a zod schema, not a JSON Schema
        settings: { key: 'x', schema: { type: 'object' } },
      }),
      defineFamily({
        name: 'x',
        version: '1.0.0',
        tools: [echo],
        setup(api) {
          // @ts-expect-error the settings are unknown: parse them before reading a field
          api.settings.servers;
        },
      }),
    ];
    expectTypeOf(misuses).toBeFunction();
  });
});
