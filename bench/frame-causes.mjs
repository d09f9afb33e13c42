// What the long frames of a Chromium trace were made of (photos-app.mjs --profile): for the frame intervals over a
// bound, the page's main-thread time by trace event (self time: a parent's time without its children's), grouped
// into causes (script, style, layout, paint, image decode, GC, …), how busy each other thread of the page's
// renderer was meanwhile, and the JavaScript functions the sampling profiler caught then. Pure: trace events in, a
// JSON-able breakdown out (frame-causes.test.mjs).

/**
 * The trace categories the breakdown needs, on top of the frame categories (`toplevel`, `blink` and
 * `disabled-by-default-v8.gc` would add detail, but with them even a large trace buffer fills within a minute of
 * scrolling).
 */
export const profileCategories = [
  'v8.execute',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
];

/** Trace event names by cause; a name not here counts under its own name in `byEvent` and as `other`. */
const causeOf = new Map(
  Object.entries({
    script: [
      'FunctionCall',
      'EvaluateScript',
      'v8.execute',
      'V8.Execute',
      'TimerFire',
      'FireAnimationFrame',
      'EventDispatch',
      'v8.callFunction',
      'RunMicrotasks',
      'V8.RunMicrotasks',
      'XHRReadyStateChange',
      'HandlePostMessage',
      'v8.run',
      'v8.compile',
      'V8.CompileCode',
      'v8.compileModule',
      'v8.evaluateModule',
      'CompileScript',
      'ScheduleStyleRecalculation',
    ],
    style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet', 'StyleRecalcInvalidationTracking'],
    layout: [
      'Layout',
      'UpdateLayout',
      'LocalFrameView::layout',
      'ComputeIntersections',
      'IntersectionObserverController::computeIntersections',
    ],
    paint: [
      'PrePaint',
      'Paint',
      'PaintImage',
      'Layerize',
      'UpdateLayer',
      'CompositeLayers',
      'Commit',
      'UpdateLayerTree',
      'PaintArtifactCompositor::Update',
    ],
    imageDecode: ['Decode Image', 'ImageDecodeTask', 'Decode LazyPixelRef', 'Resize Image', 'Draw LazyPixelRef'],
    gc: [
      'MinorGC',
      'MajorGC',
      'V8.GCScavenger',
      'V8.GCFinalizeMC',
      'V8.GCIncrementalMarking',
      'V8.GC_MC_BACKGROUND_MARKING',
      'BlinkGC.AtomicPhase',
      'BlinkGC.IncrementalMarkingStep',
      'BlinkGC.CompleteSweep',
      'BlinkGC.LazySweepInIdle',
      'CppGC.AtomicMark',
      'CppGC.IncrementalMark',
      'CppGC.LazySweep',
      'CppGC.CompleteSweep',
    ],
    parse: ['ParseHTML', 'ResourceReceivedData', 'ResourceFinish', 'ResourceReceiveResponse', 'ResourceSendRequest'],
  }).flatMap(([cause, names]) => names.map((name) => [name, cause])),
);

function cause(name) {
  if (causeOf.has(name)) return causeOf.get(name);
  if (name.startsWith('V8.GC') || name.startsWith('BlinkGC') || name.startsWith('CppGC')) return 'gc';
  if (name.startsWith('V8.') || name.startsWith('v8.')) return 'script';
  return 'other';
}

/**
 * Self-time segments of one thread's duration events, sorted by start and never overlapping: each piece of time
 * belongs to the innermost event then running (`name`), under its outermost one (`top`).
 */
export function selfSegments(threadEvents) {
  const spans = [];
  const open = new Map();
  for (const event of threadEvents) {
    if (event.ph === 'X' && typeof event.dur === 'number') {
      spans.push({ name: event.name, start: event.ts, end: event.ts + event.dur });
    } else if (event.ph === 'B') {
      const stack = open.get(event.name) ?? [];
      stack.push(event.ts);
      open.set(event.name, stack);
    } else if (event.ph === 'E') {
      const start = open.get(event.name)?.pop();
      if (start !== undefined) spans.push({ name: event.name, start, end: event.ts });
    }
  }
  // Outer before inner: by start, then the longer first.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const segments = [];
  const stack = [];
  let cursor = -Infinity;
  const emitUntil = (until) => {
    const inner = stack.at(-1);
    if (inner && until > cursor) segments.push({ start: cursor, end: until, name: inner.name, top: stack[0].name });
    cursor = Math.max(cursor, until);
  };
  for (const span of spans) {
    while (stack.length > 0 && stack.at(-1).end <= span.start) {
      emitUntil(stack.at(-1).end);
      stack.pop();
    }
    emitUntil(span.start);
    // A span reaching past its parent (clock skew of a few µs) is cut to it.
    const parent = stack.at(-1);
    stack.push(parent && span.end > parent.end ? { ...span, end: parent.end } : span);
    cursor = span.start;
  }
  while (stack.length > 0) {
    emitUntil(stack.at(-1).end);
    stack.pop();
  }
  return segments.filter((segment) => segment.end > segment.start);
}

/** The time (µs) of sorted, non-overlapping `segments` inside sorted, non-overlapping `windows`, by `keyOf`. */
function timeInWindows(segments, windows, keyOf) {
  const totals = new Map();
  let first = 0;
  for (const window of windows) {
    while (first < segments.length && segments[first].end <= window.start) first++;
    for (let index = first; index < segments.length && segments[index].start < window.end; index++) {
      const segment = segments[index];
      const overlap = Math.min(segment.end, window.end) - Math.max(segment.start, window.start);
      if (overlap <= 0) continue;
      const key = keyOf(segment);
      totals.set(key, (totals.get(key) ?? 0) + overlap);
    }
  }
  return totals;
}

const ms = (us) => Math.round(us / 10) / 100;

function top(totals, count, total) {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: ms(us), share: total > 0 ? Math.round((us / total) * 1000) / 1000 : 0 }));
}

/** The sampling profiler's samples of one thread: `{ ts, stack }`, the stack innermost first (function labels). */
export function profileSamples(events, pid, tid) {
  const profiles = new Map();
  for (const event of events) {
    if (event.ph !== 'P' || event.pid !== pid) continue;
    if (event.name === 'Profile' && event.tid === tid) {
      profiles.set(event.id, { time: event.args?.data?.startTime ?? event.ts, nodes: new Map(), samples: [] });
    }
  }
  for (const event of events) {
    if (event.ph !== 'P' || event.name !== 'ProfileChunk' || event.pid !== pid) continue;
    const profile = profiles.get(event.id);
    if (!profile) continue;
    const data = event.args?.data ?? {};
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    const ids = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    ids.forEach((id, index) => {
      profile.time += deltas[index] ?? 0;
      profile.samples.push({ ts: profile.time, id });
    });
  }
  const samples = [];
  for (const profile of profiles.values()) {
    const labels = new Map();
    const label = (node) => {
      let text = labels.get(node.id);
      if (text === undefined) {
        const frame = node.callFrame ?? {};
        const file = frame.url ? frame.url.replace(/^.*\//, '').replace(/\?.*$/, '') : '';
        text = `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
        labels.set(node.id, text);
      }
      return text;
    };
    for (const { ts, id } of profile.samples) {
      const stack = [];
      for (let node = profile.nodes.get(id); node; node = profile.nodes.get(node.parent)) stack.push(label(node));
      samples.push({ ts, stack });
    }
  }
  return samples.sort((a, b) => a.ts - b.ts);
}

/**
 * The breakdown of the frame intervals longer than `overMs` (and, apart, of those over `severeMs`): `intervals` are
 * `{ start, end }` in µs of the trace's clock; `mainPid`/`mainTid` the page's main thread.
 */
export function frameCauses(events, intervals, { mainPid, mainTid, overMs = 16.7, severeMs = 100, topCount = 15 }) {
  const threadNames = new Map();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.pid === mainPid)
      threadNames.set(event.tid, event.args?.name);
  }
  const byThread = new Map();
  for (const event of events) {
    if (event.pid !== mainPid || (event.ph !== 'X' && event.ph !== 'B' && event.ph !== 'E')) continue;
    if (!byThread.has(event.tid)) byThread.set(event.tid, []);
    byThread.get(event.tid).push(event);
  }
  const mainSegments = selfSegments(byThread.get(mainTid) ?? []);
  const samples = profileSamples(events, mainPid, mainTid);
  // Each other thread's segments, made once for both bounds.
  const otherSegments = [...byThread]
    .filter(([tid]) => tid !== mainTid)
    .map(([tid, threadEvents]) => [tid, selfSegments(threadEvents)]);

  const breakdown = (bound) => {
    const windows = intervals.filter((interval) => interval.end - interval.start > bound * 1000);
    const windowTime = windows.reduce((sum, window) => sum + window.end - window.start, 0);
    const byEvent = timeInWindows(mainSegments, windows, (segment) => segment.name);
    const byCause = new Map();
    for (const [name, us] of byEvent) byCause.set(cause(name), (byCause.get(cause(name)) ?? 0) + us);
    const busy = [...byEvent.values()].reduce((sum, us) => sum + us, 0);
    byCause.set('(main thread idle)', Math.max(0, windowTime - busy));
    const otherThreads = [];
    for (const [tid, segments] of otherSegments) {
      const total = [...timeInWindows(segments, windows, () => 'busy').values()][0] ?? 0;
      if (total > 0) otherThreads.push({ name: threadNames.get(tid) ?? `thread ${tid}`, ms: ms(total) });
    }
    otherThreads.sort((a, b) => b.ms - a.ms);
    // Samples in the windows: the innermost function, and every function on the stack (once a sample).
    const leaf = new Map();
    const inclusive = new Map();
    let sampled = 0;
    let first = 0;
    for (const window of windows) {
      while (first < samples.length && samples[first].ts < window.start) first++;
      for (let index = first; index < samples.length && samples[index].ts < window.end; index++) {
        const { stack } = samples[index];
        sampled++;
        leaf.set(stack[0], (leaf.get(stack[0]) ?? 0) + 1);
        for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
      }
    }
    const share = (entries) =>
      [...entries.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, topCount)
        .map(([name, count]) => ({
          name,
          samples: count,
          share: Math.round((count / Math.max(1, sampled)) * 1000) / 1000,
        }));
    return {
      frames: windows.length,
      totalMs: ms(windowTime),
      mainThreadByCause: top(byCause, topCount, windowTime),
      mainThreadByEvent: top(byEvent, topCount, windowTime),
      otherThreadsBusyMs: otherThreads.slice(0, topCount),
      jsSamples: sampled,
      jsSelf: share(leaf),
      jsInclusive: share(inclusive),
    };
  };

  // The longest frames one by one: their main-thread causes.
  const worst = [...intervals]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, 5)
    .sort((a, b) => a.start - b.start)
    .map((window) => {
      const events = timeInWindows(mainSegments, [window], (segment) => `${segment.top} › ${segment.name}`);
      const busy = [...events.values()].reduce((sum, us) => sum + us, 0);
      events.set('(main thread idle)', Math.max(0, window.end - window.start - busy));
      return { ms: ms(window.end - window.start), mainThread: top(events, 5, window.end - window.start) };
    });
  return {
    over: { boundMs: overMs, ...breakdown(overMs) },
    severe: { boundMs: severeMs, ...breakdown(severeMs) },
    worst,
  };
}
