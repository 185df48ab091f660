/** A step runner for `travel smoke`: times each step, stops at the first failure, skips the rest. */
import { TravelApiError } from '@travel/sdk';

export type StepResult = 'ok' | 'failed' | 'skipped';

export interface StepRecord {
  step: string;
  result: StepResult;
  ms: number;
  detail: string;
  code?: string;
  request_id?: string;
}

export function createStepRunner(now: () => number) {
  const steps: StepRecord[] = [];
  /** The error behind each failed step (its exit code decides the run's). */
  const errors = new Map<StepRecord, unknown>();
  let failed = false;
  return {
    steps,
    errors,
    get failed() {
      return failed;
    },
    /** Runs `fn` unless an earlier step failed; a failure is recorded, never thrown. */
    async run<T>(
      step: string,
      fn: () => Promise<T>,
      detail: (value: T) => string = () => '',
    ): Promise<T | undefined> {
      if (failed) {
        steps.push({ step, result: 'skipped', ms: 0, detail: '' });
        return undefined;
      }
      const started = now();
      try {
        const value = await fn();
        steps.push({ step, result: 'ok', ms: now() - started, detail: detail(value) });
        return value;
      } catch (error) {
        failed = true;
        const record = failure(step, now() - started, error);
        errors.set(record, error);
        steps.push(record);
        return undefined;
      }
    },
  };
}

export function failure(step: string, ms: number, error: unknown): StepRecord {
  const record: StepRecord = {
    step,
    result: 'failed',
    ms,
    detail: error instanceof Error ? error.message : String(error),
  };
  if (error instanceof TravelApiError) {
    // The SDK's message repeats status and request id; the table has columns for those.
    if (typeof error.detail === 'string') record.detail = error.detail;
    record.code = error.code;
    if (error.requestId) record.request_id = error.requestId;
  }
  return record;
}

/** The run tag: CI variables first (so retries of one pipeline share it), else a timestamp. */
export function defaultTag(env: NodeJS.ProcessEnv, now: Date): string {
  const ci = env.GITHUB_RUN_ID
    ? `gh-${env.GITHUB_RUN_ID}${env.GITHUB_RUN_ATTEMPT ? `-${env.GITHUB_RUN_ATTEMPT}` : ''}`
    : env.CI_PIPELINE_ID
      ? `gl-${env.CI_PIPELINE_ID}`
      : env.BUILDKITE_BUILD_ID
        ? `bk-${env.BUILDKITE_BUILD_ID}`
        : env.CIRCLE_WORKFLOW_ID
          ? `cc-${env.CIRCLE_WORKFLOW_ID}`
          : env.BUILD_ID
            ? `b-${env.BUILD_ID}`
            : undefined;
  return ci ?? `t-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
}

/** client_ref of a smoke booking; sweep finds orphans by this prefix. */
export const smokeRef = (tag: string) => `smoke:${tag}`.slice(0, 64);
