// clawmd for Node: the declarations of require('clawmd') / import 'clawmd'.

/** A stable code per cause; exitStatus is the CLI's status for the same cause. */
export type ClawmdCode = 'EUSAGE' | 'EINPUT' | 'EFS' | 'ELOCK';

export class ClawmdError extends Error {
	name: 'ClawmdError';
	code: ClawmdCode;
	/** 2 usage, 3 invalid input, 4 filesystem or safety refusal, 5 lock timeout. */
	exitStatus: number;
	/** The group directory (or ROOT) the error is about, when there is one. */
	path?: string;
	/** The option or container.json key at fault, when there is one. */
	key?: string;
	/** The system's errno at the failure, when it was a system call. */
	errno?: number;
}

/** The layout keys of clawmd.json, and watch. */
export interface OpenOptions {
	preset?: 'default' | 'nanoclaw';
	base?: string;
	skills?: string;
	groups?: string;
	/** '' turns module fragments off. */
	modules?: string;
	state?: string;
	mode?: 'copy' | 'symlink';
	import_local?: boolean;
	claude_version?: string;
	approve_external?: boolean;
	setting_sources?: string | Array<'user' | 'project' | 'local'>;
	lock_timeout?: number;
	token_budget?: number;
	container?: { base?: string; skills?: string; modules?: string; group?: string };
	'container.base'?: string;
	'container.skills'?: string;
	'container.modules'?: string;
	'container.group'?: string;
	/** Decide no-op composes from inotify (the library's watched pass). */
	watch?: boolean;
}

/** A group's container.json, as the host keeps it. */
export interface ContainerConfig {
	skills?: string[] | 'all';
	mcpServers?: Record<string, { instructions?: string; [k: string]: unknown }>;
	cli_scope?: string;
	[k: string]: unknown;
}

export interface ComposeOptions {
	/** Compute the changes only: no lock, no write. */
	dryRun?: boolean;
	/** Use this instead of the group's container.json (an object or its JSON text). */
	config?: ContainerConfig | string;
}

export interface Change {
	action: 'write' | 'remove' | 'preserve' | 'mkdir' | 'create';
	/** The entry, as the group directory is shown (relative to ROOT when inside). */
	path: string;
	/** preserve: where content clawmd did not write went. */
	movedTo?: string;
}

export interface ComposeResult {
	group: string;
	path: string;
	changed: boolean;
	changes: Change[];
	/** Every warning `clawmd compose` prints for the group, in its words
	 * (without "clawmd: warning: "): the plan's, defused @ directives, files
	 * moved out of the way.  Names in them come from the group directory. */
	warnings: string[];
}

/** One group of composeAll: its result, or the error that stopped it. */
export type ComposeAllResult = ComposeResult | { group: string; error: ClawmdError };

export interface MigrateResult {
	dryRun: boolean;
	alreadyMigrated: boolean;
	legacyLeft: boolean;
	record: string | null;
	/** Every warning `clawmd migrate` prints, in its words: groups/global
	 * back after the cutover, the .gitignore line CLAUDE.local.md needs,
	 * each moved text git tracked (staged, or the commands to run). */
	warnings: string[];
	groups: string[];
	failed: Array<{ group: string; message: string }>;
	actions: Array<{
		action: string;
		group: string | null;
		path: string | null;
		dest: string | null;
		note: string | null;
		/** The CLAUDE.md was tracked by git: its move was staged (or, with
		 * gitFailed, could not be: the message names the commands). */
		git: string | null;
		gitFailed: boolean;
		bytes: number;
	}>;
}

/** What render() is given.  The rest is set up as `clawmd render --group`
 * sets it up: clawmd.json's release and setting sources, and on a nanoclaw
 * host the release container/cli-tools.json pins, the hook's sources and
 * its memory (doc/render.md). */
export interface RenderOptions {
	format?: 'text' | 'files' | 'json';
	approveExternal?: boolean;
	/** The user tier, as a container path, absolute (default: none). */
	home?: string;
	/** Whose loading rules (default: the group's first runtime, its
	 * container.json's provider, by the rules of the built-in runtime its
	 * contract is `like`): see doc/runtimes.md. */
	runtime?: 'claude' | 'codex' | 'gemini' | 'opencode' | 'cursor' | 'copilot' | 'ollama' | 'pi' | 'qwen' | 'mock';
}

export interface MemoryFile {
	/** 'Hook' (format 'files' only): a file nanoclaw's SessionStart hook
	 * injects, after the startup memory, its parent the hook's script. */
	type: 'Managed' | 'User' | 'Project' | 'Local' | 'Hook';
	path: string;
	parent: string | null;
	size?: number;
	tokens?: number;
}

/** One file nanoclaw's SessionStart hook injects (render --json's
 * session_start.files[]). */
export interface HookFile {
	/** The container path. */
	path: string;
	/** False: no regular file there (the hook says it is unavailable);
	 * the fields below are then absent. */
	available: boolean;
	/** The trimmed file's length in UTF-16 code units. */
	chars?: number;
	/** Over maxChars: cut there, the notice line after the cut. */
	truncated?: boolean;
	/** What the hook injects of it, whole (a NUL byte included). */
	text?: string;
}

/** render --json, its keys in camelCase. */
export interface MemoryJson {
	cwd: string;
	files: MemoryFile[];
	imports: Array<{ from: string; import: string; path: string; status: string }>;
	externalIncludes: string[];
	/** Claude Code's instructionFiles in effect; null before 2.1.281 (no
	 * AGENTS.md loading), and then agentsMd and agentsMdOffBy are absent. */
	instructionFiles: 'claude-md' | 'claude-md-or-agents-md' | 'claude-md-and-agents-md' | 'managed-only' | null;
	/** Every AGENTS.md of the walk that has text, and whether it was sent. */
	agentsMd?: Array<{ path: string; loaded: boolean }>;
	/** The CLAUDE.md or CLAUDE.local.md that turned the fallback off. */
	agentsMdOffBy?: string | null;
	/** Why the runtime's loader would fail on these files and send nothing
	 * (chimera and a file that is not UTF-8); absent when it does not. */
	failed?: string;
	/** A nanoclaw host, Claude Code groups: the release whose rules loaded,
	 * and where it came from ('pinned by container/cli-tools.json',
	 * 'claude_version in clawmd.json', ...). */
	claudeVersion?: string;
	claudeVersionFrom?: string;
	/** A nanoclaw host, Claude Code groups: the setting sources, and where
	 * they came from. */
	settingSources?: Array<'project' | 'user' | 'local'>;
	settingSourcesFrom?: string;
	/** A nanoclaw host: what its SessionStart hook injects (null: the
	 * container has no hook script); absent on other hosts. */
	sessionStart?: { hook: string; maxChars: number; files: HookFile[] } | null;
}

export interface Finding {
	code: string;
	name: string;
	severity: 'note' | 'warning' | 'error';
	group: string | null;
	/** Relative to ROOT. */
	file: string;
	line: number;
	column: number;
	message: string;
	hint: string;
}

export interface CheckResult {
	findings: Finding[];
	/** Groups that could not be read; the others were checked. */
	failures: Array<{ group: string; error: ClawmdError }>;
	errors: number;
	warnings: number;
	notes: number;
}

export type GroupStatus =
	| {
			group: string;
			drift: 'clean' | 'would change' | 'hand-edited' | 'never composed' | 'invalid';
			allSkills: boolean;
			skills: string[];
			fragments: string[];
			memoryChars: number;
			tokens: number;
			findings: number;
			errors: number;
			preserved: number;
	  }
	| { group: string; drift: 'unreadable'; error: ClawmdError };

/** One mount a container runner makes for a group (clawmd mounts). */
export interface Mount {
	what: 'group' | 'entry' | 'shared' | 'fragments' | 'source';
	/** Absolute host path. */
	host: string;
	/** Absolute container path. */
	container: string;
	readonly: boolean;
	type: 'file' | 'directory';
	/** Its path inside its volume (the group directory, or ROOT); null for a source outside ROOT. */
	sub: string | null;
	/** The host path is there now, as that type (a runner mounts after compose). */
	present: boolean;
	/** docker's short form (-v HOST:CONTAINER:ro) can say it: no ':' or ',', control
	 * character, U+2028/U+2029 or invalid UTF-8 in either path.  When false, a runner
	 * uses --mount with these paths, or refuses, as `clawmd mounts --format docker` does. */
	shortForm: boolean;
}

export interface Handle {
	/** ROOT, absolute. */
	readonly root: string;
	/** The groups directory, absolute. */
	readonly groupsDir: string;
	/** clawmd.json's warnings (an unknown key), as every `clawmd` command
	 * prints them first, in its words (without "clawmd: warning: "). */
	readonly warnings: string[];
	compose(group: string, options?: ComposeOptions): ComposeResult;
	/** Every group, off the main thread. */
	composeAll(options?: { dryRun?: boolean }): Promise<ComposeAllResult[]>;
	migrate(options?: { dryRun?: boolean; force?: boolean }): MigrateResult;
	render(group: string, options?: RenderOptions & { format?: 'text' }): string;
	render(group: string, options: RenderOptions & { format: 'files' }): MemoryFile[];
	render(group: string, options: RenderOptions & { format: 'json' }): MemoryJson;
	check(groups?: string[] | null, options?: { approveExternal?: boolean }): CheckResult;
	status(groups?: string[] | null): GroupStatus[];
	groups(): string[];
	/** The mounts a container runner needs for the group, in order: the group
	 * read-write, what compose writes there read-only over it, the sources read-only. */
	mounts(group: string): Mount[];
	/** Release the root; later calls throw (EUSAGE).  Closing twice is fine. */
	close(): void;
}

/** Open ROOT (default: found from the current directory, as the CLI finds it). */
export function open(root?: string | null, options?: OpenOptions): Handle;
export const version: string;
/** True for a valid group, skill, module or server name: [A-Za-z0-9][A-Za-z0-9._-]{0,63}. */
export function validName(name: string): boolean;
/** The clawmd command this package carries. */
export const bin: string;

declare const clawmd: {
	open: typeof open;
	ClawmdError: typeof ClawmdError;
	version: string;
	validName: typeof validName;
	bin: string;
};
export default clawmd;
