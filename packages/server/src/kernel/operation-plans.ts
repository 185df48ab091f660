import { compose, type Middleware, type Step } from './compose.ts';
import type { Exchange } from './context.ts';
import type { Operation } from './contract.ts';
import { notSupported } from './errors.ts';
import type { KernelOptions } from './kernel-api.ts';
import { authenticator, roleCheck } from './middleware/auth.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { contentTypeCheck } from './middleware/content-type.ts';
import { deprecationStep } from './middleware/deprecation.ts';
import { idempotency, RawReplays } from './middleware/idempotency.ts';
import { parseJsonBody } from './middleware/json-body.ts';
import { rateClassOf, rateLimit } from './middleware/rate-limit.ts';
import { tenantCheck } from './middleware/tenant.ts';
import { inputValidator } from './middleware/validate.ts';
import type { KernelExchange } from './request-context.ts';
import type { SchemaCompiler } from './schema-compiler.ts';
import type { HandlerResult, UncheckedHandler } from './types.ts';

// Per-operation plans: the middleware an operation needs, chosen once when the kernel is built, so a
// request runs only the steps that can act on it (docs/decisions/0006-per-operation-kernel-plans.md).

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A middleware that only acts before `next()` (body limit, JSON body), run as a step. */
const asStep =
  (mw: Middleware): Step =>
  (ex) =>
    mw(ex, next);
const done = Promise.resolve();
const next = () => done;

/** Steps before the handler (each may be synchronous), then the chain around it, if any. */
interface Plan {
  before: Step[];
  around: ((ex: Exchange) => Promise<void>) | undefined;
}

/** A promise or any other thenable (what `await` would wait for). */
const isThenable = (v: unknown): v is PromiseLike<HandlerResult> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

/** The plans of one kernel's operations, and how a request runs its operation's plan. */
export interface OperationPlans {
  /** The handler registered for the operation, if any. */
  handlerFor(op: Operation): UncheckedHandler | undefined;
  /**
   * The operation's plan: the steps in line, then the chain or the handler. Returns undefined when
   * `ex.result` is set already (no promise made at all), else a promise of the rest. Throws what a
   * step throws.
   */
  runPlan(ex: KernelExchange, op: Operation): Promise<void> | undefined;
}

export function operationPlans(
  o: KernelOptions,
  compiler: SchemaCompiler,
  operations: Operation[],
): OperationPlans {
  // A handler is registered under its operationId (literal in every route file).
  const handlerFor = (op: Operation) => o.routes[op.operationId];
  // Resolved once per operation; an operation without one is looked up again per request.
  const handlers = new Map<Operation, UncheckedHandler>();
  for (const op of operations) {
    const h = handlerFor(op);
    if (h) handlers.set(op, h);
  }
  /** The operation's handler, or 501 when none is registered (yet). */
  const handlerOf = (op: Operation): UncheckedHandler => {
    const handler = handlers.get(op) ?? handlerFor(op);
    if (!handler) throw notSupported('not_implemented', `${op.operationId} is not implemented yet.`);
    return handler;
  };
  // The end of an operation's chain: it runs only after routing has set the operation.
  const handlerStep: Middleware = async function handlerMiddleware(ex) {
    ex.result = await handlerOf(ex.operation as Operation)(ex.ctx);
  };

  // Every request: request id, access log + metrics, error handler and routing, inlined in `execute`
  // (the same code as those middlewares). After routing, the plan built once for the matched operation,
  // without the steps that cannot apply to it.
  const replays = new RawReplays(o.idempotencyStore);
  const validate = inputValidator({ compiler, operations });
  const steps = {
    contentType: contentTypeCheck,
    bodyLimit: asStep(bodyLimit({ limitBytes: o.bodyLimitBytes })),
    jsonBody: parseJsonBody,
    authenticate: authenticator({ tokens: o.tokens, principals: o.principals }),
    roles: roleCheck,
    validate,
    tenant: tenantCheck,
    rateLimit: rateLimit({ store: o.rateLimitStore, rules: o.rateRules }),
    idempotency: idempotency({ store: o.idempotencyStore, replays }),
    // With idempotency, a replay's raw request may skip parsing and validation (`RawReplays`).
    replayBody: replays.parse(parseJsonBody),
    replayValidate: replays.validate(parseJsonBody, validate),
  };
  /**
   * Which steps can act on `op` (each skipped step is a pass-through for it):
   * content-type acts only on POST/PUT/PATCH; body-limit only when the method may carry a body, and
   * json-body only parses what body-limit read; auth passes public operations through, and tenant acts
   * only on an authenticated caller; roles only with `x-roles`; rate-limit only with a rate class;
   * idempotency only on POST/PATCH or a declared `x-idempotency` (there, with a body, parsing and
   * validation go through `RawReplays`, which skips both for the raw request of an earlier replay).
   * Validation and the handler always run.
   * The steps up to tenant only act before the handler and run in line (a synchronous one costs no
   * promise); rate limit, idempotency (which wraps the handler) and the handler are a composed chain,
   * or, when neither applies, the handler is called directly.
   */
  function planFor(op: Operation): Plan {
    const method = op.method.toUpperCase();
    const idempotent = op.idempotency !== undefined || method === 'POST' || method === 'PATCH';
    const body = method !== 'GET' && method !== 'HEAD';
    const before: Step[] = [];
    const deprecated = deprecationStep(op);
    if (deprecated) before.push(deprecated);
    if (BODY_METHODS.has(method)) before.push(steps.contentType);
    if (body) before.push(steps.bodyLimit, idempotent ? steps.replayBody : steps.jsonBody);
    if (!op.public) before.push(steps.authenticate);
    if (op.roles && op.roles.length > 0) before.push(steps.roles);
    before.push(body && idempotent ? steps.replayValidate : steps.validate);
    if (!op.public) before.push(steps.tenant);
    const around: Middleware[] = [];
    if (rateClassOf(op)) around.push(steps.rateLimit);
    if (idempotent) around.push(steps.idempotency);
    return { before, around: around.length > 0 ? compose([...around, handlerStep]) : undefined };
  }
  const plans = new Map<Operation, Plan>();
  for (const op of operations) plans.set(op, planFor(op));
  const planOf = (op: Operation): Plan => {
    let plan = plans.get(op);
    if (!plan) {
      plan = planFor(op);
      plans.set(op, plan);
    }
    return plan;
  };

  /** The operation's plan: the steps in line, then the chain or the handler (see `route`). */
  function runPlan(ex: KernelExchange, op: Operation): Promise<void> | undefined {
    const plan = planOf(op);
    const before = plan.before;
    for (let i = 0; i < before.length; i++) {
      const pending = (before[i] as Step)(ex);
      if (pending !== undefined) return finishPlan(ex, op, plan, i + 1, pending);
    }
    if (plan.around) return plan.around(ex);
    const result = handlerOf(op)(ex.ctx);
    if (isThenable(result)) return resultOf(ex, result);
    ex.result = result;
    return undefined;
  }

  /** The rest of a plan once a step went asynchronous: the steps from `from` on, then the handler. */
  async function finishPlan(
    ex: KernelExchange,
    op: Operation,
    plan: Plan,
    from: number,
    pending: Promise<void>,
  ): Promise<void> {
    await pending;
    const before = plan.before;
    for (let i = from; i < before.length; i++) {
      const next = (before[i] as Step)(ex);
      if (next !== undefined) await next;
    }
    if (plan.around) await plan.around(ex);
    else ex.result = await handlerOf(op)(ex.ctx);
  }

  async function resultOf(ex: KernelExchange, result: PromiseLike<HandlerResult>): Promise<void> {
    ex.result = await result;
  }

  return { handlerFor, runPlan };
}
