import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { atomicCopy } from './archive/dir';
import { createGeminiParser } from './gemini-stream';
import { type CliOptions, type RunSpec, type Runtime, runParsedTurn } from './runtime';
import { findFile } from './session-files';

/** HOME holds `.gemini/`; gemini-cli keys sessions by project (the cwd); `baseUrl` is a Gemini API endpoint. */
export type GeminiOptions = Omit<CliOptions, 'maxRetries'>;

/** The model the scripted endpoint answers as; a real key with no model uses the CLI's default. */
const SCRIPTED_MODEL = 'gemini-2.5-flash';

/** The gemini CLI arguments for one turn. `-p ""` makes it headless; the prompt itself arrives on stdin. */
export const buildGeminiArgs = (
  spec: RunSpec,
  sessionId: string,
  options: Pick<GeminiOptions, 'baseUrl'>,
) => {
  const args = ['--output-format=stream-json', '--approval-mode=yolo', '--skip-trust', '--prompt='];
  args.push(spec.resume ? `--resume=${sessionId}` : `--session-id=${sessionId}`);
  const model = spec.model ?? (options.baseUrl ? SCRIPTED_MODEL : undefined);
  if (model) args.push(`--model=${model}`);
  return args;
};

export const geminiEnv = (options: GeminiOptions): Record<string, string> => ({
  HOME: options.home,
  PATH: options.path ?? '/usr/local/bin:/usr/bin:/bin',
  // Without a real key gemini-cli talks to the scripted model, which ignores the key.
  GEMINI_API_KEY: options.apiKey ?? 'scripted-model-dummy-key',
  ...(options.baseUrl ? { GOOGLE_GEMINI_BASE_URL: options.baseUrl } : {}),
  // It would otherwise re-spawn itself with a bigger heap: one process per turn is what we kill.
  GEMINI_CLI_NO_RELAUNCH: '1',
  // Its crash reports go to the temp dir; keep them inside the agent's HOME.
  TMPDIR: join(options.home, '.reprise', 'tmp'),
  NO_COLOR: '1',
});

/** API-key auth and nothing that phones home: no telemetry, usage statistics or update checks. */
export const ensureGeminiSettings = (home: string): void => {
  const file = join(home, '.gemini', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  mkdirSync(join(home, '.reprise', 'tmp'), { recursive: true });
  let settings: Record<string, unknown> = {};
  try {
    settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // Missing or unreadable: start from an empty object rather than refuse to run.
  }
  const merged = {
    ...settings,
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // Session cleanup is on by default (30 days): sessions must live as long as their executions.
    general: { disableAutoUpdate: true, disableUpdateNag: true, sessionRetention: { enabled: false } },
  };
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
};

/**
 * Whether `file` holds a resumable conversation of this session. On a resume in a later minute
 * gemini-cli also starts a header-only file under the same id prefix; only the file with the
 * dialogue counts (the CLI's own lookup skips the other one as well).
 */
const holdsSession = (file: string, sessionId: string): boolean => {
  try {
    const text = readFileSync(file, 'utf8');
    const id: unknown = JSON.parse(text.split('\n', 1)[0] ?? '').sessionId;
    // A message record is a line of its own; the header-only file has one only inside a `$set`.
    return (
      id === sessionId &&
      text.split('\n').some((line) => line.startsWith('{"id"') && line.includes('"type":"user"'))
    );
  } catch {
    return false;
  }
};

/**
 * gemini-cli keeps a session in `~/.gemini/tmp/<project>/chats/session-<time>-<id prefix>.jsonl`
 * (the project folder is its name for the cwd, in `projects.json`) and finds it on `--resume <id>`
 * by reading the files there, so any `session-*` name will do for a restored one.
 */
const chatsDir = (home: string, workdir: string): string => {
  let slug = basename(workdir);
  try {
    const projects = JSON.parse(readFileSync(join(home, '.gemini', 'projects.json'), 'utf8')).projects;
    if (typeof projects?.[workdir] === 'string') slug = projects[workdir];
  } catch {
    // No registry yet: gemini-cli names the project after the cwd's last segment.
  }
  return join(home, '.gemini', 'tmp', slug, 'chats');
};

const sessionLocator =
  (home: string, workdir: string) =>
  (sessionId: string): string => {
    const dir = chatsDir(home, workdir);
    const suffix = `-${sessionId.slice(0, 8)}.jsonl`;
    const found = findFile(
      dir,
      (name) =>
        name.startsWith('session-') && name.endsWith(suffix) && holdsSession(join(dir, name), sessionId),
    );
    return found ?? join(dir, `session-1970-01-01T00-00${suffix}`);
  };

/**
 * The platform forks a gemini session itself: its `--session-file` import writes two files for
 * one session. The copy gets a new id in its header line and is then resumed like any session.
 */
const forkSession = async (locate: (id: string) => string, sourceId: string): Promise<string> => {
  const source = locate(sourceId);
  if (!existsSync(source)) return sourceId;
  const forkId = randomUUID();
  const target = locate(forkId);
  await atomicCopy(source, target);
  // gemini-cli appends a header line (and a `$set` of the id) on every resume: rename them all.
  const renamed = readFileSync(target, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.includes(sourceId)) return line;
      const record = JSON.parse(line) as { sessionId?: string; $set?: { sessionId?: string } };
      if (record.sessionId === sourceId) record.sessionId = forkId;
      if (record.$set?.sessionId === sourceId) record.$set.sessionId = forkId;
      return JSON.stringify(record);
    });
  writeFileSync(target, renamed.join('\n'));
  return forkId;
};

/** Google's gemini-cli. New sessions take the platform's id (`--session-id`); forks are copies. */
export const createGeminiRuntime = (options: GeminiOptions): Runtime => {
  ensureGeminiSettings(options.home);
  const locate = sessionLocator(options.home, options.workdir);
  return {
    name: 'gemini',
    transcriptPath: locate,
    run: async (spec, io) => {
      const sessionId = spec.forkSession ? await forkSession(locate, spec.sessionId) : spec.sessionId;
      if (sessionId !== spec.sessionId) io.emit({ type: 'status', status: 'running', session_id: sessionId });
      return runParsedTurn(
        options,
        {
          args: buildGeminiArgs(spec, sessionId, options),
          env: geminiEnv(options),
          parser: createGeminiParser(),
        },
        spec,
        io,
      );
    },
  };
};
