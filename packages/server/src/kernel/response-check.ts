import type { Exchange } from './context.ts';
import type { KernelOptions } from './kernel-api.ts';
import { ResponseValidator, type ResponseViolation } from './response-validator.ts';
import type { HandlerResult } from './types.ts';

/**
 * `RESPONSE_VALIDATION`: the finished result against the contract; in strict mode a violation is a 500.
 * Undefined when validation is off (the kernel then checks nothing).
 */
export function responseCheck(
  o: Pick<KernelOptions, 'doc' | 'responseValidation' | 'onResponseViolation'>,
): ((ex: Exchange, result: HandlerResult) => HandlerResult) | undefined {
  if (!o.responseValidation || o.responseValidation === 'off') return undefined;
  const validator = new ResponseValidator(o.doc);
  return function checkResponse(ex, result) {
    const op = ex.operation;
    if (!op || result.status === 499) return result;
    const body = 'sse' in result || 'raw' in result ? undefined : result.body;
    const problems = validator.problems(op.operationId, result.status, body);
    if (problems.length === 0) return result;
    const violation: ResponseViolation = {
      operationId: op.operationId,
      method: ex.request.method,
      path: ex.url.pathname,
      status: result.status,
      problems,
    };
    ex.ctx.log.error({ violation }, 'response does not match the contract');
    o.onResponseViolation?.(violation);
    if (o.responseValidation !== 'strict') return result;
    return {
      status: 500,
      body: {
        detail: `Response validation (strict): ${op.operationId} ${result.status} does not match the contract: ${problems.slice(0, 5).join('; ')}`,
        code: 'internal_error',
        request_id: ex.ctx.requestId,
      },
    };
  };
}
