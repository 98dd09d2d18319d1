// zod is a dependency of @toolshed/core, not of this package; the test fixtures borrow core's
// copy to build ordinary zod-schema tools, as an integrator's session would have them.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as zod from 'zod';

const require = createRequire(import.meta.resolve('@toolshed/core'));
export const { z } = (await import(pathToFileURL(require.resolve('zod')).href)) as typeof zod;
