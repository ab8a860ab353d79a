/**
 * Structured logs: one JSON line per event. Callers pass identifiers (request id, tenant, agent,
 * execution id) — never message bodies, tokens or keys.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(base: LogFields = {}, write: (line: string) => void = defaultWrite): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }));
  return {
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, write),
  };
}

function defaultWrite(line: string): void {
  process.stdout.write(`${line}\n`);
}

export const silentLogger: Logger = createLogger({}, () => {});
