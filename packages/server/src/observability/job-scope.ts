import type { Logger } from '../internal/logger.ts';
import { CallScope, runInScope } from './call-scope.ts';
import { tracer } from './tracing.ts';

/**
 * One job run: its supplier calls log and record under the job's id (and the booking its handler
 * loads), and, when tracing is on, it is a span `job <queue>` with the job id and attempt.
 */
export function observeJob<R>(
  job: { id: string; queue: string; attempts: number },
  log: Logger | undefined,
  fn: () => Promise<R>,
): Promise<R> {
  const scope = new CallScope({ jobId: job.id }, log ? { log } : undefined);
  const t = tracer;
  if (t === null) return runInScope(scope, fn);
  const span = t.span(`job ${job.queue}`, 'internal', {
    'travel.job.id': job.id,
    'travel.job.queue': job.queue,
    'travel.job.attempt': job.attempts,
  });
  return runInScope(scope, () =>
    span.run(async () => {
      try {
        return await fn();
      } catch (err) {
        span.fail(err);
        throw err;
      } finally {
        span.end();
      }
    }),
  );
}
