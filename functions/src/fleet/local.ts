import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../lib/log';
import type { AgentEndpoint, AgentFleet, AgentRef, AgentStatus } from './agent-fleet';

export interface LocalFleetOptions {
  /** argv that starts one agent server, e.g. [node, --import, tsx, agent-image/src/main.ts]. */
  readonly command: readonly string[];
  /** Agent homes live at <baseDir>/agents/<tenant>/<agent>; archives at <baseDir>/archive/…. */
  readonly baseDir: string;
  /** Extra environment for every agent (ANTHROPIC_BASE_URL of the scripted model, …). */
  readonly env: Record<string, string>;
  readonly logger: Logger;
  readonly startTimeoutMs?: number;
}

interface Running {
  child: ChildProcess;
  status: AgentStatus;
  endpoint: AgentEndpoint | null;
  ready: Promise<AgentStatus>;
  stopping: boolean;
}

/**
 * The local stand-in for ECS: one agent-image server process per agent, with its own port,
 * HOME (the stand-in for the EFS access point) and a fresh random token per start.
 */
export class LocalAgentFleet implements AgentFleet {
  private readonly agents = new Map<string, Running>();
  private readonly failed = new Set<string>();
  private readonly starts = new Map<string, number>();

  constructor(private readonly options: LocalFleetOptions) {}

  private paths(ref: AgentRef) {
    const home = join(this.options.baseDir, 'agents', ref.tenant, ref.agent);
    return {
      home,
      workdir: join(home, 'w'),
      archive: join(this.options.baseDir, 'archive', ref.tenant, ref.agent),
    };
  }

  async create(ref: AgentRef): Promise<void> {
    const p = this.paths(ref);
    await mkdir(p.workdir, { recursive: true });
    await mkdir(p.archive, { recursive: true });
  }

  async destroy(ref: AgentRef): Promise<void> {
    await this.stop(ref);
    const p = this.paths(ref);
    await rm(p.home, { recursive: true, force: true });
    await rm(p.archive, { recursive: true, force: true });
  }

  start(ref: AgentRef): Promise<AgentStatus> {
    const key = `${ref.tenant}/${ref.agent}`;
    const existing = this.agents.get(key);
    if (existing && (existing.status === 'running' || existing.status === 'starting')) return existing.ready;
    this.failed.delete(key);
    this.starts.set(key, (this.starts.get(key) ?? 0) + 1);
    const p = this.paths(ref);
    const token = randomBytes(32).toString('base64url');
    const [bin, ...args] = this.options.command;
    const child = spawn(bin!, args, {
      env: {
        PATH: process.env.PATH ?? '',
        ...this.options.env,
        PORT: '0',
        AGENT_TOKEN: token,
        AGENT_HOME: p.home,
        AGENT_WORKDIR: p.workdir,
        ARCHIVE_DIR: p.archive,
        AGENT_RUNTIME: ref.runtime ?? 'claude',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Out of the stack's process group: a Ctrl-C reaches the stack, which stops agents in order
      // (runs recorded first), instead of every agent dying mid-write at once.
      detached: true,
    });
    const entry: Running = {
      child,
      status: 'starting',
      endpoint: null,
      ready: Promise.resolve('starting'),
      stopping: false,
    };
    entry.ready = this.awaitListening(entry, token, key);
    this.agents.set(key, entry);
    child.once('exit', (code, signal) => {
      if (!entry.stopping) {
        this.failed.add(key);
        this.options.logger.warn('agent process exited', { agent: key, code, signal });
        // An ECS task takes every process with it when it dies; a crashed local agent server would
        // leave its CLI runs (own process groups) orphaned, so end them the same way.
        killProcessesIn(p.workdir);
      }
      entry.status = entry.stopping ? 'stopped' : 'failed';
      entry.endpoint = null;
      if (this.agents.get(key) === entry) this.agents.delete(key);
    });
    return entry.ready;
  }

  private awaitListening(entry: Running, token: string, key: string): Promise<AgentStatus> {
    const timeoutMs = this.options.startTimeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        entry.child.kill('SIGKILL');
        reject(new Error(`Agent ${key} did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      entry.child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`Agent ${key} exited while starting`));
      });
      const lines = createInterface({ input: entry.child.stdout! });
      lines.on('line', (line) => {
        if (entry.status !== 'starting') return;
        const port = parseListening(line);
        if (port === null) return;
        clearTimeout(timer);
        entry.endpoint = { url: `http://127.0.0.1:${port}`, token };
        entry.status = 'running';
        resolve('running');
      });
    });
  }

  async stop(ref: AgentRef): Promise<AgentStatus> {
    const key = `${ref.tenant}/${ref.agent}`;
    this.failed.delete(key);
    const entry = this.agents.get(key);
    if (!entry) return 'stopped';
    entry.stopping = true;
    await terminate(entry.child);
    return 'stopped';
  }

  async status(ref: AgentRef): Promise<AgentStatus> {
    const key = `${ref.tenant}/${ref.agent}`;
    return this.agents.get(key)?.status ?? (this.failed.has(key) ? 'failed' : 'stopped');
  }

  /** How many agent server processes this fleet has spawned for the agent (tests count wakes). */
  startCount(ref: AgentRef): number {
    return this.starts.get(`${ref.tenant}/${ref.agent}`) ?? 0;
  }

  /** Resolves when the agent's current server process has exited (at once if none runs). */
  exited(ref: AgentRef): Promise<void> {
    const entry = this.agents.get(`${ref.tenant}/${ref.agent}`);
    if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => entry.child.once('exit', () => resolve()));
  }

  /** The agent server's pid (tests kill it to prove a crash is handled). */
  processId(ref: AgentRef): number | null {
    return this.agents.get(`${ref.tenant}/${ref.agent}`)?.child.pid ?? null;
  }

  async endpoint(ref: AgentRef): Promise<AgentEndpoint | null> {
    return this.agents.get(`${ref.tenant}/${ref.agent}`)?.endpoint ?? null;
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.agents.values()].map((entry) => {
        entry.stopping = true;
        return terminate(entry.child);
      }),
    );
  }
}

/** Linux only (the local stack's platform): every process whose cwd is `dir`. */
function killProcessesIn(dir: string): void {
  if (process.platform !== 'linux') return;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already, or not ours to read
    }
  }
}

function parseListening(line: string): number | null {
  try {
    const parsed = JSON.parse(line) as { msg?: string; port?: number };
    return parsed.msg === 'listening' && typeof parsed.port === 'number' ? parsed.port : null;
  } catch {
    return null;
  }
}

/** SIGTERM lets the agent server stop its CLI process groups; SIGKILL if it does not exit in time. */
function terminate(child: ChildProcess, graceMs = 8000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
