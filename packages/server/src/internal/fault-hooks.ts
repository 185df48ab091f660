/**
 * Test-only fault hooks: named boundaries inside an operation (`createPnr:before-supplier`, …) where a
 * fault-injection test stops the process. Inert unless `TEST_FAULT_HOOKS=1`; then the boundaries listed in
 * `TEST_FAULT_AT` (comma-separated) print `fault-hook reached <name>` on stderr and either block forever
 * (`TEST_FAULT_MODE=block`, the default: the test kills the process from outside) or kill the process
 * with SIGKILL themselves (`TEST_FAULT_MODE=kill`). Production never sets these variables.
 */
export type FaultBoundary =
  | 'createPnr:before-supplier'
  | 'createPnr:after-supplier'
  | 'createPnr:before-commit'
  | 'authorize:before-provider'
  | 'authorize:after-provider'
  | 'authorize:before-commit'
  | 'ticket:before-capture'
  | 'ticket:after-capture'
  | 'ticket:before-capture-commit'
  | 'ticket:before-supplier'
  | 'ticket:after-supplier'
  | 'ticket:before-commit'
  | 'ticketAction:before-settlement'
  | 'ticketSettle:before-provider'
  | 'hotelBook:before-supplier'
  | 'hotelBook:after-supplier'
  | 'hotelBook:before-commit'
  | 'transportBook:before-supplier'
  | 'transportBook:after-supplier'
  | 'transportBook:before-commit'
  | 'hotelCancel:after-supplier'
  | 'transportCancel:after-supplier';

export async function faultPoint(name: FaultBoundary, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.TEST_FAULT_HOOKS !== '1') return;
  const at = (env.TEST_FAULT_AT ?? '').split(',').map((s) => s.trim());
  if (!at.includes(name)) return;
  process.stderr.write(`fault-hook reached ${name}\n`);
  if (env.TEST_FAULT_MODE === 'kill') process.kill(process.pid, 'SIGKILL');
  // Block: the request never goes on, while the process (and its lease heartbeats) stay alive.
  await new Promise<never>(() => {});
}
