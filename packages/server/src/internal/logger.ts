/**
 * The logger every layer writes to (pino's shape): defined on the ground floor so storage, jobs and the
 * supplier adapters can take one without importing the kernel. `kernel/types.ts` re-exports it.
 */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}
