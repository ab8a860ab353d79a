export { type AgentServerDeps, createAgentServer } from './app';
export type { TranscriptArchive } from './archive/archive';
export { createDirArchive } from './archive/dir';
export { createS3Archive } from './archive/s3';
export { createClaudeRuntime } from './claude';
export { type AgentConfig, loadConfig } from './config';
export type { RunOutcome, RunSpec, Runtime } from './runtime';
export { createFileLedger } from './session-ledger';
export { TaskRegistry } from './task-registry';
