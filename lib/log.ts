// Structured one-line JSON logs. Callers pass ids and codes, never keys, secrets or bodies.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function createLogger(level: LogLevel, sink: (line: string) => void = (l) => console.log(l)): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    sink(JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...fields }));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * One line for a log: the innermost cause's SQLSTATE/errno code and message. A failed statement's own message
 * (drizzle's "Failed query: …") carries the SQL and its parameters, which can hold prospects' addresses and reply
 * text, so it is never logged; the database's reason (e.g. "40P01 deadlock detected") is what an operator needs.
 */
export function errorText(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error && e.cause instanceof Error && e.cause !== e; depth++) e = e.cause;
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const message = /^Failed query:/.test(e.message) ? 'query failed' : e.message;
  return typeof code === 'string' && code ? `${code} ${message}` : message;
}
