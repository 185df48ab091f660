/**
 * Reads the contract and writes src/generated/sensitive-fields.ts: every property the contract marks as
 * personal or secret (`format: email|password`, `writeOnly`, `x-sensitive: true`). The SDK's debug log
 * redacts these names on top of its built-in name rules, so a new e-mail field in the contract is redacted
 * without anyone editing the SDK. Run by `pnpm --filter @travel/sdk generate`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Node = Record<string, unknown>;

const MARKS = (schema: Node) =>
  schema.format === 'email' ||
  schema.format === 'password' ||
  schema.writeOnly === true ||
  schema['x-sensitive'] === true;

/** The sorted, de-duplicated names of sensitive properties and parameters in `contract`. */
export function sensitiveFieldNames(contract: unknown): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const object = node as Node;
    const properties = object.properties as Record<string, Node> | undefined;
    if (properties && typeof properties === 'object') {
      for (const [name, schema] of Object.entries(properties)) if (schema && MARKS(schema)) names.add(name);
    }
    if (typeof object.name === 'string' && object.schema && MARKS(object.schema as Node))
      names.add(object.name);
    for (const value of Object.values(object)) walk(value);
  };
  walk(contract);
  return [...names].sort();
}

/** The file's text. */
export function renderSensitiveFields(contract: unknown): string {
  const list = sensitiveFieldNames(contract)
    .map((name) => `  '${name}',`)
    .join('\n');
  return `// Generated from openapi.json by scripts/generate-sensitive-fields.ts. Do not edit.\n/** Fields the contract marks as personal or secret. */\nexport const CONTRACT_SENSITIVE_FIELDS: readonly string[] = [\n${list}\n];\n`;
}

// Run as a script (import.meta.main needs Node 24; this works on 22 too).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [input = '../../openapi.json', output = 'src/generated/sensitive-fields.ts'] = process.argv.slice(2);
  writeFileSync(output, renderSensitiveFields(JSON.parse(readFileSync(input, 'utf8'))));
  console.log(`${output}: ${sensitiveFieldNames(JSON.parse(readFileSync(input, 'utf8'))).length} fields`);
}
