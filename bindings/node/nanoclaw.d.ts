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
/** The mounts for the group's instruction files, for buildMounts (after composeGroupClaudeMd); throws a ClawmdError for a path not there or one docker's -v cannot carry. */
export function groupMounts(group: AgentGroup): VolumeMount[];

/** nanoclaw's ProviderInstructionFacts: the provider's variables for the canon. */
export interface ProviderInstructionFacts {
	/** Files the runtime loads that the agent must not keep memory in (the canon's memory note). */
	nativeOverrideFiles?: readonly string[];
	nativeSkills?: {
		discoveryPath: string;
		sharedSource: string;
		selfAuthoredHome: string;
		persistentRoots: readonly string[];
		ruleBearingInlined?: boolean;
	};
}

/** nanoclaw's ProjectDocSpec (a provider contract's projectDocument). */
export interface ProjectDocSpec {
	/** CLAUDE.md, AGENTS.md, GEMINI.md or QWEN.md (typed as nanoclaw types it;
	 * another name is refused at the call, EUSAGE). */
	fileName: string;
	instructions?: ProviderInstructionFacts;
	/** @deprecated nanoclaw's pre-contract input: this file (relative to the
	 * working directory) as the runtime contract, as written; null: the canon's path. */
	baseDocPath?: string | null;
	/** @deprecated nanoclaw's pre-contract input: sections never dropped, after the contract. */
	extraSections?: { name: string; body: string }[];
	/** The ladder's cap in bytes; undefined: none. */
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

/** nanoclaw's BASE_INSTRUCTIONS_PATH: container/CLAUDE.md. */
export const BASE_INSTRUCTIONS_PATH: string;
/** '{{provider-memory-note}}' */
export const MEMORY_NOTE_PLACEHOLDER: string;
/** { fileName: 'CLAUDE.md', maxBytes: 4194304 } */
export const DEFAULT_PROJECT_DOC: ProjectDocSpec;
/** The canon with the provider's memory note in place of the placeholder paragraph (none without override files). */
export function renderBaseInstructions(template: string, facts?: ProviderInstructionFacts): string;
/** The Native Runtime Skills section the facts make; undefined without nativeSkills. */
export function renderNativeSkillsSection(facts?: ProviderInstructionFacts): { name: string; body: string } | undefined;

/**
 * What the host sets once: nanoclaw's getContainerConfig (the group's
 * container_configs row, or a Promise of it; undefined: no row) and its
 * logger.  Either may be left out; null unsets it.
 */
export function configure(options: {
	getContainerConfig?: ((agentGroupId: string) => ContainerConfigRow | undefined | null |
		Promise<ContainerConfigRow | undefined | null>) | null;
	log?: ProjectDocLogger | null;
}): void;

/**
 * nanoclaw's composeGroupProjectDoc (2.4): the flat document for `spec` in
 * groupDir/<spec.fileName>, nanoclaw's bytes (@ directives in what the agent
 * wrote defused); the row from configure()'s reader; runtimeSkills in place
 * of the stored skill selection.  The earlier form passed the row (or a
 * container.json-shaped object) fourth; options.config and options.log
 * still override the configured ones.
 */
export function composeGroupProjectDoc(group: AgentGroup, groupDir: string, spec: ProjectDocSpec,
	runtimeSkills?: readonly string[] | null | ContainerConfig | ContainerConfigRow | string,
	options?: { log?: ProjectDocLogger; config?: ContainerConfig | ContainerConfigRow | string }): Promise<ProjectDocResult>;
