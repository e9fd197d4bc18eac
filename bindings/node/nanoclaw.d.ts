// clawmd/nanoclaw: nanoclaw's composer API over clawmd.
import type { ComposeResult, ContainerConfig, MigrateResult } from './index';

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
/** The one-time cutover from groups/global (idempotent); each warning (a
 * git-tracked container/CLAUDE.md left unchanged and where its review file
 * is, ...) to options.log.warn, else console.warn.  What migrate did;
 * undefined without a groups directory. */
export function migrateGroupsToClaudeLocal(options?: { log?: ProjectDocLogger }): MigrateResult | undefined;
/** nanoclaw's VolumeMount. */
export interface VolumeMount {
	hostPath: string;
	containerPath: string;
	readonly: boolean;
}
/** The mounts for the group's instruction files, for buildMounts (after composeGroupClaudeMd). */
export function groupMounts(group: AgentGroup): VolumeMount[];

/** nanoclaw's ProjectDocSpec (a provider contract's projectDocument). */
export interface ProjectDocSpec {
	fileName: 'CLAUDE.md' | 'AGENTS.md' | 'GEMINI.md' | 'QWEN.md';
	instructions?: {
		nativeOverrideFiles?: readonly string[];
		nativeSkills?: {
			discoveryPath: string;
			sharedSource: string;
			selfAuthoredHome: string;
			persistentRoots: readonly string[];
			ruleBearingInlined?: boolean;
		};
	};
	maxBytes?: number;
}

/** A logger in nanoclaw's shape (its `log`). */
export interface ProjectDocLogger {
	warn?(message: string, fields?: Record<string, unknown>): void;
	error?(message: string, fields?: Record<string, unknown>): void;
}

export interface ProjectDocResult extends ComposeResult {
	/** spec.fileName */
	file: string;
	/** The section names the cap ladder left out, in drop order. */
	dropped: string[];
}

/**
 * nanoclaw's composeGroupProjectDoc (pull request 3536 on): the flat
 * document for `spec` in groups/<folder>/<spec.fileName>, the same bytes
 * as nanoclaw's composer; warnings to options.log.warn, what the cap
 * ladder dropped to options.log.error.
 */
export function composeGroupProjectDoc(group: AgentGroup, groupDir: string, spec: ProjectDocSpec,
	config?: ContainerConfig | ContainerConfigRow | string | null,
	options?: { log?: ProjectDocLogger }): ProjectDocResult;
