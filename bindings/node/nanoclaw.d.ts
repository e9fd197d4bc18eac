// clawmd/nanoclaw: nanoclaw's composer API over clawmd.
import type { ComposeResult, ContainerConfig } from './index';

/** nanoclaw's AgentGroup (only folder is read). */
export interface AgentGroup {
	id?: string;
	name?: string;
	folder: string;
}

/** A row of nanoclaw's container_configs table (JSON columns as text). */
export interface ContainerConfigRow {
	agent_group_id?: string;
	skills?: string | null;
	mcp_servers?: string | null;
	cli_scope?: string | null;
}

/** Regenerate groups/<folder>/CLAUDE.md under the working directory; what
 * compose did, its warnings among it (an unknown provider composes the
 * default surfaces with a warning). */
export function composeGroupClaudeMd(group: AgentGroup, config?: ContainerConfig | ContainerConfigRow | string): ComposeResult;
/** The one-time cutover from groups/global (idempotent). */
export function migrateGroupsToClaudeLocal(): void;
/** nanoclaw's VolumeMount. */
export interface VolumeMount {
	hostPath: string;
	containerPath: string;
	readonly: boolean;
}
/** The mounts for the group's instruction files, for buildMounts (after composeGroupClaudeMd). */
export function groupMounts(group: AgentGroup): VolumeMount[];
