import { describe, expect, it } from 'vitest';
import {
  type BreakerConfig,
  type BreakerState,
  CircuitBreaker,
  CircuitBreakerRegistry,
} from './circuit-breaker.ts';

function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const cfg: BreakerConfig = {
  failureThreshold: 3,
  windowMs: 10_000,
  openDurationMs: 5_000,
  halfOpenMaxProbes: 1,
  halfOpenSuccesses: 2,
};

type Step = ['fail' | 'ok' | 'cancel' | 'force'] | ['wait', number] | ['pass', boolean];

interface Case {
  name: string;
  steps: Step[];
  state: BreakerState;
}

const cases: Case[] = [
  { name: 'starts closed', steps: [['pass', true]], state: 'closed' },
  { name: 'below threshold stays closed', steps: [['fail'], ['fail'], ['pass', true]], state: 'closed' },
  { name: 'threshold opens', steps: [['fail'], ['fail'], ['fail'], ['pass', false]], state: 'open' },
  {
    name: 'failures outside the window do not count',
    steps: [['fail'], ['fail'], ['wait', 10_001], ['fail'], ['pass', true]],
    state: 'closed',
  },
  {
    name: 'successes do not reset the rolling window',
    steps: [['fail'], ['ok'], ['fail'], ['ok'], ['fail'], ['pass', false]],
    state: 'open',
  },
  {
    name: 'open until the open duration passes, then half-open with one probe',
    steps: [
      ['fail'],
      ['fail'],
      ['fail'],
      ['wait', 4_999],
      ['pass', false],
      ['wait', 1],
      ['pass', true],
      ['pass', false],
    ],
    state: 'half_open',
  },
  {
    name: 'half-open closes after enough probe successes',
    steps: [
      ['fail'],
      ['fail'],
      ['fail'],
      ['wait', 5_000],
      ['pass', true],
      ['ok'],
      ['pass', true],
      ['ok'],
      ['pass', true],
    ],
    state: 'closed',
  },
  {
    name: 'half-open failure reopens',
    steps: [['fail'], ['fail'], ['fail'], ['wait', 5_000], ['pass', true], ['fail'], ['pass', false]],
    state: 'open',
  },
  {
    name: 'cancel frees the probe slot',
    steps: [['fail'], ['fail'], ['fail'], ['wait', 5_000], ['pass', true], ['cancel'], ['pass', true]],
    state: 'half_open',
  },
  {
    name: 'late failures while open are ignored',
    steps: [['fail'], ['fail'], ['fail'], ['fail'], ['fail'], ['wait', 5_000], ['pass', true]],
    state: 'half_open',
  },
  {
    name: 'forceClose closes',
    steps: [['fail'], ['fail'], ['fail'], ['force'], ['pass', true]],
    state: 'closed',
  },
];

describe('CircuitBreaker', () => {
  it.each(cases)('$name', ({ steps, state }) => {
    const clock = fakeClock();
    const b = new CircuitBreaker('amadeus', cfg, { now: clock.now });
    for (const s of steps) {
      if (s[0] === 'fail') b.onFailure();
      else if (s[0] === 'ok') b.onSuccess();
      else if (s[0] === 'cancel') b.onCancel();
      else if (s[0] === 'force') b.forceClose();
      else if (s[0] === 'wait') clock.advance(s[1]);
      else expect(b.canPass()).toBe(s[1]);
    }
    expect(b.snapshot().state).toBe(state);
  });

  it('snapshot reports times and counters', () => {
    const clock = fakeClock(Date.UTC(2026, 0, 1));
    const b = new CircuitBreaker('duffel', cfg, { now: clock.now });
    b.onFailure();
    b.onSuccess();
    expect(b.snapshot()).toMatchObject({
      state: 'closed',
      failures: 1,
      opened_at: null,
      next_attempt_at: null,
    });
    b.onFailure();
    b.onFailure();
    expect(b.snapshot()).toMatchObject({
      name: 'duffel',
      state: 'open',
      failures: 3,
      opened_at: '2026-01-01T00:00:00.000Z',
      next_attempt_at: '2026-01-01T00:00:05.000Z',
      total_failures: 3,
      total_successes: 1,
      times_opened: 1,
    });
    clock.advance(5_000);
    expect(b.snapshot().state).toBe('half_open');
  });

  it('reports state changes', () => {
    const changes: string[] = [];
    const clock = fakeClock();
    const b = new CircuitBreaker(
      'x',
      { ...cfg, halfOpenSuccesses: 1 },
      {
        now: clock.now,
        onStateChange: (_n, from, to) => changes.push(`${from}->${to}`),
      },
    );
    for (let i = 0; i < 3; i++) b.onFailure();
    clock.advance(5_000);
    b.canPass();
    b.onSuccess();
    expect(changes).toEqual(['closed->open', 'open->half_open', 'half_open->closed']);
  });
});

describe('CircuitBreakerRegistry', () => {
  it('creates per-supplier breakers with overrides and resets them', () => {
    const clock = fakeClock();
    const reg = new CircuitBreakerRegistry({
      defaults: cfg,
      overrides: { slow: { failureThreshold: 1 } },
      now: clock.now,
    });
    expect(reg.get('fast')).toBe(reg.get('fast'));
    reg.get('slow').onFailure();
    reg.get('fast').onFailure();
    expect(reg.snapshots().map((s) => [s.name, s.state])).toEqual([
      ['fast', 'closed'],
      ['slow', 'open'],
    ]);
    expect(reg.forceClose('slow')).toBe(true);
    expect(reg.forceClose('unknown')).toBe(false);
    expect(reg.get('slow').snapshot().state).toBe('closed');
  });
});
