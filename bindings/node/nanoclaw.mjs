// The ESM face of clawmd/nanoclaw.
import { createRequire } from 'node:module';

const nanoclaw = createRequire(import.meta.url)('./nanoclaw.js');

export const { composeGroupClaudeMd, composeGroupProjectDoc, migrateGroupsToClaudeLocal, groupMounts } = nanoclaw;
export default nanoclaw;
