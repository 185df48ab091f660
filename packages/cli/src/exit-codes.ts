/** The process exit codes, documented in the README; scripts branch on them, so they never change meaning. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  authentication: 3,
  notFound: 4,
  /** A conflict, or a state transition the server refused (already captured, not cancellable...). */
  conflict: 5,
  /** The supplier has neither confirmed nor rejected yet (a 502 booking still pending). */
  supplierPending: 6,
  /** Ctrl-C at a prompt, a picker or during a stream: 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
