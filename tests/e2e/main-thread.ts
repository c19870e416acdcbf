/**
 * The page's main-thread work while the lab plays: a Chromium performance trace read for the
 * main thread's tasks by thread (CPU) time, and the frames the page drew meanwhile.
 */
import type { Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event, µs. */
  tdur?: number;
}

export interface MainThreadFigures {
  frames: number;
  p95: number;
  max: number;
  long: number[];
  tasks: number;
  /** Main-thread tasks' CPU ms, longest first. */
  cpu: number[];
  /** Main-thread tasks' wall ms, longest first. */
  wall: number[];
}

/** Clock text `t = 6m4s` in virtual seconds. */
export function clockSeconds(text: string): number {
  const m = /t = (?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?/.exec(text)!;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** Press Play and record `ms` of the page playing. */
export async function tracePlaying(page: Page, ms: number): Promise<MainThreadFigures> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline']
  });
  const f = await page.evaluate(async (ms) => {
    const long: number[] = [];
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) long.push(Math.round(e.duration));
    });
    obs.observe({ type: 'longtask', buffered: false });
    (document.querySelector('button.play') as HTMLButtonElement).click();
    const gaps: number[] = [];
    let last = performance.now();
    await new Promise<void>((done) => {
      const start = last;
      const tick = (now: number) => {
        gaps.push(now - last);
        last = now;
        if (now - start < ms) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    obs.disconnect();
    gaps.sort((a, b) => a - b);
    return {
      long,
      frames: gaps.length,
      p95: Math.round(gaps[Math.floor(gaps.length * 0.95)]),
      max: Math.round(gaps[gaps.length - 1])
    };
  }, ms);
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const events = trace.traceEvents;
  const fire = events.find((e) => e.name === 'FireAnimationFrame')!;
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === fire.pid && e.tid === fire.tid
  );
  return {
    ...f,
    tasks: tasks.length,
    cpu: tasks.map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => b - a),
    wall: tasks.map((e) => (e.dur ?? 0) / 1000).sort((a, b) => b - a)
  };
}

export function describeFigures(f: MainThreadFigures, clock: number): string {
  return (
    `frames=${f.frames} p95=${f.p95}ms max=${f.max}ms clock=${clock}s tasks=${f.tasks} ` +
    `cpu max=${f.cpu[0].toFixed(1)}ms top=${f.cpu.slice(0, 5).map(Math.round)} ` +
    `wall over 50 ms=${f.wall.filter((w) => w > 50).length} longtasks=${JSON.stringify(f.long)}`
  );
}

/** A Chromium trace of the page taken while `during` runs (also written to `TRACE_OUT=<file>`, with JavaScript samples). */
async function recordTrace<T>(
  page: Page,
  during: () => Promise<T>
): Promise<{ result: T; events: TraceEvent[] }> {
  const browser = page.context().browser()!;
  const out = process.env.TRACE_OUT;
  await browser.startTracing(page, {
    ...(out ? { path: out } : {}),
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      ...(out ? ['disabled-by-default-v8.cpu_profiler'] : [])
    ]
  });
  const result = await during();
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const events = trace.traceEvents;
  return { result, events };
}

/**
 * The main thread's tasks (CPU and wall ms, longest first) in a trace taken while `during` runs.
 * With `TRACE_OUT=<file>` the trace is also written there, with JavaScript samples (open it in
 * the browser's performance panel to see what a long task ran).
 */
export async function traceDuring<T>(
  page: Page,
  during: () => Promise<T>
): Promise<{ result: T; cpu: number[]; wall: number[]; tasks: number }> {
  const { result, events } = await recordTrace(page, during);
  const main = events.find(
    (e) => e.name === 'thread_name' && (e as { args?: { name?: string } }).args?.name === 'CrRendererMain'
  )!;
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main.pid && e.tid === main.tid
  );
  return {
    result,
    tasks: tasks.length,
    cpu: tasks.map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => b - a),
    wall: tasks.map((e) => (e.dur ?? 0) / 1000).sort((a, b) => b - a)
  };
}

export interface ThreadFigures {
  tasks: number;
  /** Tasks' CPU ms, longest first. */
  cpu: number[];
  /** Tasks' wall ms, longest first. */
  wall: number[];
  /** Sum of the tasks' CPU and wall ms. */
  busyCpu: number;
  busyWall: number;
}

/**
 * The page's main thread and the lab worker's thread in one Chromium trace taken while `during`
 * runs: their tasks by CPU and wall time. With `TRACE_OUT=<file>` the trace is also written there,
 * with JavaScript samples of both threads.
 */
export async function traceThreads<T>(
  page: Page,
  during: () => Promise<T>
): Promise<{ result: T; main: ThreadFigures; worker: ThreadFigures }> {
  const { result, events } = await recordTrace(page, during);
  const named = (name: string) =>
    events.filter((e) => e.name === 'thread_name' && (e as { args?: { name?: string } }).args?.name === name);
  const figures = (threads: TraceEvent[]): ThreadFigures => {
    const tasks = events.filter(
      (e) => e.ph === 'X' && e.name === 'RunTask' && threads.some((t) => e.pid === t.pid && e.tid === t.tid)
    );
    const cpu = tasks.map((e) => (e.tdur ?? 0) / 1000);
    const wall = tasks.map((e) => (e.dur ?? 0) / 1000);
    return {
      tasks: tasks.length,
      cpu: [...cpu].sort((a, b) => b - a),
      wall: [...wall].sort((a, b) => b - a),
      busyCpu: cpu.reduce((a, b) => a + b, 0),
      busyWall: wall.reduce((a, b) => a + b, 0)
    };
  };
  return { result, main: figures(named('CrRendererMain')), worker: figures(named('DedicatedWorker thread')) };
}
