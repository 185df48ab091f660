/**
 * compose.yaml run as one podman pod, for machines that have podman but no registry and no compose
 * provider (docs/operations.md, "Without a registry"). The services share the pod's network namespace:
 * each service name resolves to 127.0.0.1 (`--add-host`), which is why compose.yaml gives every replica
 * its own port. Only what compose.yaml uses is translated: image, command, environment (with
 * `${VAR:-default}` interpolation), named and bind volumes, published ports, depends_on with its three
 * conditions (service_started, service_healthy via the healthcheck test run by `podman exec`,
 * service_completed_successfully by running the one-shot service to its end) and stop_grace_period.
 * Everything is published on 127.0.0.1 only.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

interface Service {
  image: string;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

export interface Compose {
  dir: string;
  services: Record<string, Service>;
  volumes: string[];
}

/** `${VAR}`, `${VAR:-default}` and `${VAR-default}` from `env`, as compose interpolates. */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{(\w+)(?:(:?-)([^}]*))?\}/g,
    (_m, name: string, op: string | undefined, def = '') => {
      const v = env[name];
      if (op === ':-') return v ? v : def;
      if (op === '-') return v ?? def;
      return v ?? '';
    },
  );
}

export function loadCompose(file: string, env: Record<string, string | undefined>): Compose {
  const doc = parse(interpolate(readFileSync(file, 'utf8'), env), { merge: true }) as {
    services: Record<string, Service>;
    volumes?: Record<string, unknown>;
  };
  return { dir: dirname(file), services: doc.services, volumes: Object.keys(doc.volumes ?? {}) };
}

export function podman(args: string[], o: { check?: boolean; quiet?: boolean } = {}) {
  const r = spawnSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (o.check !== false && r.status !== 0) {
    throw new Error(`podman ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
  }
  if (!o.quiet && r.status !== 0) process.stderr.write(r.stderr);
  return { status: r.status ?? -1, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

const seconds = (s: string | undefined) => {
  const m = /^(\d+)(s|m)?$/.exec(s ?? '');
  return m ? Number(m[1]) * (m[2] === 'm' ? 60 : 1) : 10;
};

const dependencies = (s: Service): [string, string][] =>
  Array.isArray(s.depends_on)
    ? s.depends_on.map((d) => [d, 'service_started'])
    : Object.entries(s.depends_on ?? {}).map(([d, c]) => [d, c.condition ?? 'service_started']);

/** Services in an order where each comes after what it depends on. */
function startOrder(c: Compose): string[] {
  const done: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (done.includes(name)) return;
    if (path.includes(name)) throw new Error(`depends_on cycle: ${[...path, name].join(' -> ')}`);
    const s = c.services[name];
    if (!s) throw new Error(`unknown service ${name}`);
    for (const [d] of dependencies(s)) visit(d, [...path, name]);
    done.push(name);
  };
  for (const name of Object.keys(c.services)) visit(name, []);
  return done;
}

/** Resolves when `fn` holds, polling every 250 ms; throws after `ms`. */
export async function until(what: string, ms: number, fn: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await fn()) return;
    } catch {}
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export class Pod {
  readonly name: string;
  readonly compose: Compose;
  constructor(name: string, compose: Compose) {
    this.name = name;
    this.compose = compose;
  }

  container(service: string): string {
    return `${this.name}-${service}`;
  }

  /**
   * Creates the pod, publishing each `host:container` pair on 127.0.0.1. `ports` maps a service's
   * container port to a host port; compose's own `ports:` entries are replaced by these (a test picks
   * free ports).
   */
  create(ports: Record<number, number>): void {
    const hosts = Object.keys(this.compose.services).flatMap((s) => ['--add-host', `${s}:127.0.0.1`]);
    const publish = Object.entries(ports).flatMap(([inside, outside]) => [
      '-p',
      `127.0.0.1:${outside}:${inside}`,
    ]);
    podman(['pod', 'create', '--name', this.name, ...hosts, ...publish]);
    for (const v of this.compose.volumes) podman(['volume', 'create', `${this.name}-${v}`]);
  }

  #runArgs(service: string, s: Service): string[] {
    // A key without a value takes the caller's, or is left unset (as compose does).
    const env = Object.entries(s.environment ?? {}).flatMap(([k, v]) =>
      v === null || v === undefined
        ? process.env[k]
          ? ['-e', `${k}=${process.env[k]}`]
          : []
        : ['-e', `${k}=${v}`],
    );
    const volumes = (s.volumes ?? []).flatMap((v) => {
      const [src = '', ...rest] = v.split(':');
      const local = src.startsWith('.') || isAbsolute(src);
      const from = local ? resolve(this.compose.dir, src) : `${this.name}-${src}`;
      return ['-v', [from, ...rest].join(':')];
    });
    return [
      '--pod',
      this.name,
      '--name',
      this.container(service),
      '--stop-timeout',
      String(seconds(s.stop_grace_period)),
      ...env,
      ...volumes,
      s.image,
      ...(s.command ?? []),
    ];
  }

  /** Starts every service in dependency order, honouring each depends_on condition. */
  async up(o: { timeoutMs: number; log?: (line: string) => void }): Promise<void> {
    const started = new Set<string>();
    for (const name of startOrder(this.compose)) {
      const s = this.compose.services[name] as Service;
      for (const [dep, condition] of dependencies(s)) {
        if (condition === 'service_healthy') await this.healthy(dep, o.timeoutMs);
        if (!started.has(dep)) throw new Error(`${name} depends on ${dep}, which did not start`);
      }
      const oneShot = Object.values(this.compose.services).some((other) =>
        dependencies(other).some(([d, c]) => d === name && c === 'service_completed_successfully'),
      );
      if (oneShot) {
        const r = podman(['run', '--rm', ...this.#runArgs(name, s)], { check: false });
        if (r.status !== 0) throw new Error(`${name} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
        o.log?.(`${name}: ${r.stdout.split('\n').at(-1)}`);
      } else {
        podman(['run', '-d', ...this.#runArgs(name, s)]);
        o.log?.(`${name}: started`);
      }
      started.add(name);
    }
  }

  /** The service's compose healthcheck (`CMD …`) passes inside its container. */
  async healthy(service: string, timeoutMs: number): Promise<void> {
    const test = this.compose.services[service]?.healthcheck?.test;
    if (test?.[0] !== 'CMD') throw new Error(`${service} has no CMD healthcheck`);
    await until(`${service} healthy`, timeoutMs, () => {
      if (this.state(service).status !== 'running') throw new Error(`${service} is not running`);
      return (
        podman(['exec', this.container(service), ...test.slice(1)], { check: false, quiet: true }).status ===
        0
      );
    });
  }

  state(service: string): { status: string; exitCode: number } {
    const r = podman(
      ['inspect', this.container(service), '--format', '{{.State.Status}} {{.State.ExitCode}}'],
      {
        check: false,
        quiet: true,
      },
    );
    const [status = 'missing', code = '-1'] = r.stdout.split(' ');
    return { status, exitCode: Number(code) };
  }

  logs(service: string): string {
    const r = podman(['logs', this.container(service)], { check: false, quiet: true });
    return `${r.stdout}\n${r.stderr}`;
  }

  /** Removes the pod, its containers and its volumes. */
  down(): void {
    podman(['pod', 'rm', '-f', '-t', '0', this.name], { check: false, quiet: true });
    for (const v of this.compose.volumes)
      podman(['volume', 'rm', '-f', `${this.name}-${v}`], { check: false, quiet: true });
  }
}
