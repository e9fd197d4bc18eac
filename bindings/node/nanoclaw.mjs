// The ESM face of clawmd/nanoclaw.
import { createRequire } from 'node:module';

const nanoclaw = createRequire(import.meta.url)('./nanoclaw.js');

export const { composeGroupClaudeMd, composeGroupProjectDoc, migrateGroupsToClaudeLocal, groupMounts, configure } = nanoclaw;
// the rest of nanoclaw's src/project-doc-compose.ts, for the module it replaces
export const { renderBaseInstructions, renderNativeSkillsSection, BASE_INSTRUCTIONS_PATH, MEMORY_NOTE_PLACEHOLDER, DEFAULT_PROJECT_DOC } = nanoclaw;
export default nanoclaw;
