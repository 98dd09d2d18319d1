import { describeError } from './describe_error.ts';
import type { Family, FamilySetupApi } from './family.ts';
import type { NoticeHub } from './_notice_hub.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { ToolPool } from './pool.ts';
import type { Services } from './services.ts';
import type { LoadedSettings } from './settings/load_settings.ts';

/** What every family's `setup` is given, before its own settings are added. */
export interface FamilySetupParts {
  sessionId: string;
  cwd: string;
  stateDir: string;
  services: Services;
  permissions: PermissionContext;
  pool: ToolPool;
  notices: NoticeHub;
  cleanups: (() => void | Promise<void>)[];
  familySettings: LoadedSettings['familySettings'];
  /** Where `api.setInstructions` keeps each prefix's instructions (read by the deferred notice). */
  instructions: Map<string, string>;
}

/**
 * Runs each family's `setup`, in order, before the pool is assembled. A family whose setup
 * throws is one error notice; the others still set up.
 *
 * @param families The session's families.
 * @param parts What the setup API exposes.
 * @returns Settles once every setup has.
 *
 * @example
 * ```ts
 * import { runFamilySetups, type FamilySetupParts } from './_family_setup.ts';
 * import type { Family } from './family.ts';
 *
 * declare const families: Family[];
 * declare const parts: FamilySetupParts;
 * await runFamilySetups(families, parts);
 * ```
 */
export async function runFamilySetups(families: readonly Family[], parts: FamilySetupParts): Promise<void> {
  const { pool, notices, cleanups } = parts;
  for (const family of families) {
    if (!family.setup) continue;
    const api: FamilySetupApi = {
      sessionId: parts.sessionId,
      cwd: parts.cwd,
      stateDir: parts.stateDir,
      services: parts.services,
      permissions: parts.permissions,
      setDeferralPolicy: (policy) => pool.setDeferralPolicy(policy),
      setInstructions: (prefix, text) => {
        if (text?.trim()) parts.instructions.set(prefix, text.trim());
        else parts.instructions.delete(prefix);
      },
      refreshTools: () => pool.assemble(),
      emit: (event) => notices.notice(event.level, event.message),
      onClose: (cleanup) => void cleanups.push(cleanup),
      settings: family.settings ? parts.familySettings[family.settings.key]?.value : undefined,
    };
    try {
      await family.setup(api);
    } catch (e) {
      notices.notice('error', `Family "${family.name}" failed to set up: ${describeError(e)}`);
    }
  }
}
