/**
 * The deploy test (`node deploy/test.ts`, a step of `pnpm test` where podman is installed): builds the
 * local base images when missing (deploy/local/base-images.sh), builds the image from ./Containerfile,
 * starts compose.yaml as one pod (deploy/pod.ts) and checks what an operator relies on:
 *   - both replicas healthy (the image's HEALTHCHECK, /health/ready) and the build's commit in /health/;
 *   - a search started through one replica is read and booked through the other;
 *   - SIGTERM to one replica: its readiness turns 503 while it still answers, the bookings in flight on it
 *     all complete, traffic through the proxy and to the other replica never fails, and the container
 *     exits 0 within READINESS_DRAIN_MS + SHUTDOWN_GRACE_MS + 1 s.
 * Everything listens on 127.0.0.1 or inside the pod. Ends with `N passed, N failed`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { futureDate, oneWaySearch } from '../packages/server/test/harness/flight-search.ts';
import { Client } from '../packages/server/test/resilience/stack.ts';
import { loadCompose, Pod, podman, until } from './pod.ts';

const root = join(import.meta.dirname, '..');
const started = Date.now();
const cache = process.env.OCI_CACHE || '/var/cache/oci-local';
process.env.CONTAINERS_CONF ||= join(cache, 'containers.conf');
const image = 'localhost/travel:deploy-test';
const commit =
  spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || 'unknown';
let passed = 0;
let failed = 0;
const ok = (name: string, cond: boolean, detail = '') => {
  if (cond) passed += 1;
  else failed += 1;
  console.log(`${cond ? '✔' : '✘'} ${name}${cond || !detail ? '' : `\n    ${detail}`}`);
  return cond;
};
const time = <T>(label: string, fn: () => T): T => {
  const t = Date.now();
  const r = fn();
  console.log(`deploy: ${label} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return r;
};
const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

// 1. Images: the local stand-ins for the official bases, then ours.
time('base images', () => {
  const r = spawnSync('bash', [join(root, 'deploy/local/base-images.sh')], {
    stdio: 'inherit',
    env: process.env,
  });
  if (r.status !== 0) throw new Error('deploy/local/base-images.sh failed');
});
const previous = podman(['image', 'inspect', image, '--format', '{{.Id}}'], {
  check: false,
  quiet: true,
}).stdout;
time('image build', () => {
  const r = spawnSync(
    'podman',
    [
      'build',
      '--format',
      'docker',
      '--layers',
      '--pull=never',
      '--build-arg',
      'BASE=localhost/node-local:24-bookworm-slim',
      '--build-arg',
      `COMMIT=${commit}`,
      '-t',
      image,
      '.',
    ],
    { cwd: root, stdio: ['ignore', process.env.DEPLOY_TEST_VERBOSE ? 'inherit' : 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error('podman build failed');
  // The image the last run built, now untagged: removed so runs do not pile up images (its cached layers
  // that this build reused stay, as parents of the new one).
  const now = podman(['image', 'inspect', image, '--format', '{{.Id}}'], {
    check: false,
    quiet: true,
  }).stdout;
  if (previous && previous !== now) podman(['rmi', previous], { check: false, quiet: true });
});

// 2. The stack, from compose.yaml, with the local images and a supplier latency that keeps a booking
//    in flight long enough to send SIGTERM under it.
const compose = loadCompose(join(root, 'compose.yaml'), {
  ...process.env,
  TRAVEL_IMAGE: image,
  POSTGRES_IMAGE: 'localhost/postgres-local:15-bookworm',
  HAPROXY_IMAGE: 'localhost/haproxy-local:2.6-bookworm',
  MOCK_LATENCY_MS: '400-700',
  LOG_LEVEL: 'warn',
});
// A run killed before its cleanup leaves its pod behind: remove those first (ours only, by name).
for (const stale of podman([
  'pod',
  'ls',
  '--filter',
  'name=^travel-deploy-',
  '--format',
  '{{.Name}}',
]).stdout.split('\n')) {
  if (stale) new Pod(stale, compose).down();
}
const pod = new Pod(`travel-deploy-${process.pid}`, compose);
let ports: Record<number, number> = {};
for (let attempt = 0; ; attempt++) {
  ports = { 8080: await freePort(), 8081: await freePort(), 8082: await freePort() };
  try {
    pod.create(ports);
    break;
  } catch (err) {
    // A TIME-WAIT socket can hold a port that looked free (docs/operations.md): pick others.
    pod.down();
    if (attempt === 3 || !String(err).includes('address already in use')) throw err;
  }
}
const [proxy, a, b] = [ports[8080], ports[8081], ports[8082]].map((p) => `http://127.0.0.1:${p}`) as [
  string,
  string,
  string,
];

try {
  const t = Date.now();
  await pod.up({ timeoutMs: 120_000, log: (l) => console.log(`deploy: ${l}`) });
  await until('both replicas ready', 120_000, async () =>
    (await Promise.all([a, b].map((u) => fetch(`${u}/health/ready`)))).every((r) => r.status === 200),
  );
  // The proxy routes once a replica passed two readiness checks (haproxy.cfg: rise 2).
  await until('the proxy routing', 30_000, async () => (await fetch(`${proxy}/health/ready`)).status === 200);
  console.log(`deploy: stack up in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await checks();
} catch (err) {
  ok('the stack runs', false, String(err instanceof Error ? err.stack : err));
  for (const s of Object.keys(compose.services)) console.log(`--- ${s} ---\n${pod.logs(s).slice(-3000)}`);
} finally {
  pod.down();
}
console.log(`deploy: total ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

async function checks(): Promise<void> {
  // Healthy: the image's own HEALTHCHECK (liveness) and readiness, on both; the build is the one we made.
  for (const [svc, url] of [
    ['api-1', a],
    ['api-2', b],
  ] as const) {
    const hc = podman(['healthcheck', 'run', pod.container(svc)], { check: false });
    const ready = await fetch(`${url}/health/ready`);
    const health = (await (await fetch(`${url}/health/`)).json()) as { build?: { commit?: string } };
    ok(
      `${svc}: HEALTHCHECK passes, /health/ready 200, /health/ names commit ${commit.slice(0, 12)}`,
      hc.status === 0 && ready.status === 200 && health.build?.commit === commit,
      `healthcheck ${hc.status} ${hc.stderr}; ready ${ready.status}; build ${JSON.stringify(health.build)}`,
    );
  }
  const info = (await (await fetch(`${proxy}/`)).json()) as {
    version?: string;
    build?: { version?: string };
  };
  ok(
    'GET / through the proxy names the API version and the build apart',
    info.version === '1.0.0' && !!info.build?.version,
    JSON.stringify(info),
  );

  // A search started on one replica, read and booked on the other.
  const onA = new Client(a);
  await onA.login();
  const onB = new Client(b);
  onB.token = onA.token;
  const search = await onA.req('POST', '/api/v1/flight/getFare', {
    body: oneWaySearch('LHR', 'DXB', futureDate(60)),
  });
  const batch = await onB.req('GET', `/api/v1/flight/getFare/batch/${search.body.searchId}?timeout=30`);
  const offers = (
    (batch.body?.results_by_gds?.amadeus ?? []) as {
      offer_id: string;
      lcc: boolean;
      validating_carrier?: string;
      price: { currency: string };
    }[]
  ).filter((o) => !o.lcc && o.validating_carrier !== 'W6');
  ok(
    'a search started on api-1 is read on api-2',
    search.status === 202 && batch.status === 200 && offers.length > 0,
    `search ${search.status}, batch ${batch.status} ${JSON.stringify(batch.body).slice(0, 300)}`,
  );
  const offer = offers[0];
  if (!offer) return;
  const booked = await onB.createPnr(offer, `deploy-${process.pid}-0`);
  const seen = await onA.req('GET', `/api/v1/bookings/${booked.body?.booking_id}`);
  ok(
    'its offer is booked on api-2 and the booking read on api-1',
    booked.status === 200 &&
      booked.body.status === 'confirmed' &&
      seen.status === 200 &&
      seen.body.pnr === booked.body.pnr,
    `createPnr ${booked.status} ${JSON.stringify(booked.body).slice(0, 300)}; read ${seen.status}`,
  );

  // SIGTERM to api-1 with three bookings in flight on it.
  const doneAt: number[] = [];
  const inFlight = [1, 2, 3].map((i) =>
    onA.createPnr(offer, `deploy-${process.pid}-${i}`, `DRAIN${'ABC'[i - 1]}`).then((r) => {
      doneAt.push(Date.now());
      return r;
    }),
  );
  await until('three bookings in flight on api-1', 30_000, async () => {
    const m = (await (await fetch(`${a}/metrics/combined`)).json()) as { requests: { in_flight: number } };
    return m.requests.in_flight >= 4; // the three and this request
  });
  const viaProxy = new Client(proxy);
  viaProxy.token = onA.token;
  let stopped = false;
  const failures: string[] = [];
  let served = 0;
  const traffic = (async () => {
    while (!stopped) {
      for (const c of [viaProxy, onB]) {
        const r = await c
          .req('GET', `/api/v1/bookings/${booked.body.booking_id}`)
          .catch((e: Error) => ({ status: 0, body: e.message }));
        if (r.status === 200) served += 1;
        else failures.push(`${c.url}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
  })();
  const t0 = Date.now();
  const stop = new Promise<number>((done) => {
    spawn('podman', ['stop', '-t', '20', pod.container('api-1')], { stdio: 'ignore' }).on('exit', () =>
      done(Date.now() - t0),
    );
  });
  // Readiness first: 503 from api-1 while its listener still answers (liveness 200 on a new connection).
  let notReadyWhileUp = false;
  let drainSeenAt = Number.POSITIVE_INFINITY;
  await until('api-1 not ready while still answering', 10_000, async () => {
    const ready = await fetch(`${a}/health/ready`, { headers: { connection: 'close' } });
    const live = await fetch(`${a}/health/live`, { headers: { connection: 'close' } });
    notReadyWhileUp = ready.status === 503 && live.status === 200;
    if (notReadyWhileUp) drainSeenAt = Date.now();
    return notReadyWhileUp;
  }).catch(() => {});
  ok('on SIGTERM api-1 answers /health/ready 503 before its listener closes', notReadyWhileUp);
  const results = await Promise.all(inFlight);
  const after = doneAt.filter((d) => d > drainSeenAt).length;
  ok(
    `the three bookings in flight on api-1 all complete, confirmed (${after} finished after the drain began)`,
    results.every((r) => r.status === 200 && r.body.status === 'confirmed') && after > 0,
    results.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`).join('; '),
  );
  const ms = await stop;
  stopped = true;
  await traffic;
  const state = pod.state('api-1');
  ok(
    `api-1 exits 0 within its grace (${ms} ms; drain 2000 + grace 10000 + 1000)`,
    state.status === 'exited' && state.exitCode === 0 && ms < 13_000,
    JSON.stringify(state),
  );
  ok(
    `the proxy and api-2 kept serving during the drain (${served} requests, none failed)`,
    failures.length === 0 && served > 0,
    failures.slice(0, 5).join('\n    '),
  );
  const again = await viaProxy.req('POST', '/api/v1/flight/getFare', {
    body: oneWaySearch('LHR', 'DXB', futureDate(61)),
  });
  const read = await viaProxy.req('GET', `/api/v1/flight/getFare/batch/${again.body?.searchId}?timeout=30`);
  ok(
    'after api-1 is gone, a search through the proxy runs on api-2',
    again.status === 202 && read.status === 200,
    `${again.status} ${read.status}`,
  );
}
