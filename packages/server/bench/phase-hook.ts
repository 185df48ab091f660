/**
 * Loaded into our server by `peers.ts` (`--import`). Asked to, it records the search path's phase marks
 * (`src/internal/phase-marks.ts`) and node:http's own (a request's start, a response's finish), each
 * with this thread's CPU time so far, and hands them to the bench over the server's IPC channel when it
 * sends `{ phases: 'flush' }`; and it answers `{ phases: 'memory' }` with `process.memoryUsage()`. Times on the cross-process scale (`performance.timeOrigin + now()`, ms).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { PhaseMark } from '../src/internal/phase-marks.ts';

export interface Recorded {
  search: string;
  phase: string;
  detail?: string | number;
  at: number;
  /** This thread's CPU time (user + system) at the mark, ms. */
  cpu: number;
}

const recorded: Recorded[] = [];
const now = () => performance.timeOrigin + performance.now();
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** Recording starts on `{ phases: 'record' }`: until then nothing subscribes and nothing is kept. */
function record(): void {
  subscribe('travel:phase', (m) => {
    const { search, phase, detail } = m as PhaseMark;
    recorded.push({ search, phase, ...(detail !== undefined ? { detail } : {}), at: now(), cpu: cpu() });
  });
  // The URL stands in for the search: the bench picks its requests by path (and by time for the POST).
  subscribe('http.server.request.start', (m) => {
    const req = (m as { request: IncomingMessage }).request;
    recorded.push({ search: req.url ?? '', phase: 'http-start', at: now(), cpu: cpu() });
  });
  subscribe('http.server.response.finish', (m) => {
    const req = (m as { request: IncomingMessage }).request;
    recorded.push({ search: req.url ?? '', phase: 'http-finish', at: now(), cpu: cpu() });
  });
}

process.on('message', (m) => {
  const ask = (m as { phases?: string } | null)?.phases;
  if (ask === 'record') {
    record();
    process.send?.({ phases: [] });
  } else if (ask === 'flush') process.send?.({ phases: recorded.splice(0) });
  // The process's memory as node sees it (RSS, JS heap, external and array buffers), bytes.
  else if (ask === 'memory') process.send?.({ memory: process.memoryUsage() });
});
process.channel?.unref();
