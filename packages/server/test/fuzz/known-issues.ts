/**
 * Violations the fuzz suite found in code this suite does not own. Each is routed to its owner and has a
 * named regression test (`it.fails`) in `regressions.test.ts`; the fuzz run counts them in its summary
 * instead of failing. When the owner fixes one, its regression test starts failing: delete the entry.
 */
import type { Violation } from './harness.ts';

export interface KnownIssue {
  id: string;
  owner: string;
  summary: string;
  matches(v: Violation): boolean;
}

/**
 * Fixed (regressions.test.ts keeps them as passing tests): int64-overflow-500 (bounded integers in the
 * contract, non-finite numbers refused by the kernel), nul-byte-500 and lone-surrogate-json-500 (kernel
 * validate middleware: `string_nul`, `string_unpaired_surrogate`), clear-cache-body, role-code-mismatch
 * (`insufficient_role`), tenant-code-mismatch (`tenant_mismatch` declared), patch-415-413-undeclared.
 */
export const KNOWN_ISSUES: readonly KnownIssue[] = [];

export const knownIssueOf = (v: Violation): KnownIssue | undefined => KNOWN_ISSUES.find((k) => k.matches(v));
