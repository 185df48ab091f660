/**
 * The app with the hotel and transport domains mounted on the real contract, the sandbox suppliers on
 * loopback emulators, and a job runner on the test clock (tests call `runOnce`, never sleep).
 */

import { randomBytes } from 'node:crypto';
import { type MockServers, startMockServers } from '@travel/mock-server';
import {
  adminReservationRoutes,
  companyReservationRoutes,
  customerReservationRoutes,
  reservationJobHandlers,
  reservationRoutes,
} from '../../src/domains/reservation/index.ts';
import { createRefSigner, type RefSigner } from '../../src/internal/signed-ref.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { createSupplierRegistry, type SupplierRegistry } from '../../src/suppliers/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { realContract } from '../helpers/contract.ts';

export interface World {
  t: TestApp;
  registry: SupplierRegistry;
  jobs: JobRunner;
  /** The emulators (their request counters prove a refused reference reached no supplier). */
  mocks: MockServers;
  /** What the registry signs rate keys and quote ids with (to forge one signed for another scope). */
  refSigner: RefSigner;
  close(): Promise<void>;
}

export async function world(opts: { onStatement?: (sql: string) => void } = {}): Promise<World> {
  const mocks = await startMockServers({
    options: { latencyMs: 0, seed: 1 },
    suppliers: ['amadeus', 'duffel', 'mystifly', 'hotelbeds', 'hotelbeds-transfers'],
  });
  let registry: SupplierRegistry | undefined;
  // The registry needs the app's database, which exists only once the app does: resolve lazily.
  const suppliers = {
    hotel: (n: string) => registry?.hotel(n),
    transfer: (n: string) => registry?.transfer(n),
  };
  const contract = realContract();
  if (!contract) throw new Error('openapi.json is missing');
  const t = await createTestApp({
    contract,
    ...(opts.onStatement ? { onStatement: opts.onStatement } : {}),
    routes: (s) => {
      const deps = { db: s.db, clock: s.clock, suppliers };
      return {
        ...reservationRoutes(deps),
        ...adminReservationRoutes(deps),
        ...companyReservationRoutes(deps),
        ...customerReservationRoutes(deps),
      };
    },
  });
  const refSigner = createRefSigner(randomBytes(32).toString('base64url'));
  registry = await createSupplierRegistry({
    refSigner,
    config: { sandbox: true, suppliers: 'sandbox' },
    db: t.database.db,
    sandboxUrls: { ...mocks.urls, stripe: 'http://127.0.0.1:9' },
  });
  const deps = { db: t.database.db, clock: t.clock, suppliers };
  const jobs = new JobRunner({
    db: t.database.db,
    clock: t.clock,
    handlers: reservationJobHandlers(deps),
    backoffBaseMs: 1000,
  });
  return {
    t,
    registry,
    jobs,
    mocks,
    refSigner,
    async close() {
      await t.close();
      await mocks.close();
    },
  };
}

export { futureDate } from '../harness/flight-search.ts';

let keySeq = 0;
export const idem = (): Record<string, string> => ({ 'idempotency-key': `k-${Date.now()}-${++keySeq}` });
