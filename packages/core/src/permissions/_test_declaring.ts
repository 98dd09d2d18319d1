import { z } from 'zod';
import { type AnyTool, buildTool, type ResourceAccess } from '../tool.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import { testContext } from './_test_context.ts';
import type { PermissionDecision } from './types.ts';

/**
 * A read-only tool that declares the given resources, whatever its input: for the tests of how
 * the guard judges a kind of resource, apart from any real tool.
 *
 * @param resources What every call declares.
 * @returns The tool (named `Scan`).
 *
 * @example
 * ```ts
 * import { declaring } from './_test_declaring.ts';
 *
 * const tool = declaring([{ path: '/p', access: 'read', kind: 'folder' }]);
 * ```
 */
export function declaring(resources: ResourceAccess[]): AnyTool {
  return buildTool({
    name: 'Scan',
    description: 'declares resources',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    resources: () => resources,
    async call() {
      return { data: '' };
    },
  });
}

/** Rules and mode of {@linkcode decideDeclared}. */
export interface DeclaredRules {
  mode?: string;
  deny?: string[];
  ask?: string[];
  allow?: string[];
}

/**
 * The guard's decision on a call of {@linkcode declaring}'s tool in `cwd`, with these rules.
 *
 * @param resources What the call declares.
 * @param options The folder the session works in, the mode (default `default`) and the rules.
 * @returns The decision.
 *
 * @example
 * ```ts
 * import { decideDeclared } from './_test_declaring.ts';
 *
 * await decideDeclared([{ path: '/p/.env', access: 'read' }], { cwd: '/p', deny: ['Read(./.env)'] }); // deny
 * ```
 */
export async function decideDeclared(
  resources: ResourceAccess[],
  options: DeclaredRules & { cwd: string },
): Promise<PermissionDecision> {
  const { context } = createPermissionContext(
    {
      mode: (options.mode ?? 'default') as 'default',
      deny: options.deny ?? [],
      ask: options.ask ?? [],
      allow: options.allow ?? [],
    },
    options.cwd,
  );
  return decidePermission(declaring(resources), {}, { ctx: testContext({ cwd: options.cwd, permissions: context }) });
}
