/**
 * `executeNamed` (storage/prepared.ts): a statement built per call runs as a prepared statement under
 * `<name>.v<n>`, the same text keeping its name across calls; at most 8 texts per name are registered,
 * further ones run unnamed with the same result (issue 31: createPnr's write-ahead and settlement).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeNamed, statementName } from '../../src/storage/prepared.ts';
import { type TestDatabase, testDatabase } from '../helpers/db.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database?.close());

describe('executeNamed', () => {
  it('registers each text once under the name, up to 8 texts, and answers the same either way', async () => {
    const db = database.db;
    const q = (k: number, v: number) => sql<{ n: number }>`select ${v}::integer + ${sql.lit(k)} as n`;
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 10; k++) {
        const rows = await executeNamed(db, 'test_named', { compile: () => q(k, round).compile(db) });
        expect(rows).toEqual([{ n: k + round }]);
      }
    }
    const names = Array.from({ length: 10 }, (_, k) => statementName(q(k, 0).compile(db).sql));
    expect(names.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, n) => `test_named.v${n}`));
    expect(names.slice(8)).toEqual([undefined, undefined]);
  });
});
