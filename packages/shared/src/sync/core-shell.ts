// The shell of a synced store around its pure core (`step(state, event) → { state, effects }`): the state,
// the snapshot pages read and their listeners, the core's effects run in order, the pull runs, and the tab
// signals. Generic: the auth app's vault and the photos library extend it, each with its own core and
// effects. See: [Note: Core shell]
//
// [Note: Core shell]
// - `dispatch(event)` steps the core and performs its effects in order: the shell's own (`ShellEffect`: emit,
//   pull, announce, stop, save) and, through `performOther`, the store's. A save (the store's cache write) is
//   awaited before the effects after it, and none runs once the state is closed.
// - `publish()` makes the snapshot of the state (kept as it is while the state is the same object, so that
//   useSyncExternalStore sees no change) and calls the listeners; a closed state drops them.
// - Pull runs: the core never has two at once (`pulling`); `beginPullRun()` when a pull starts, and
//   `pullAndWait()` asks for one and resolves when the run under way (its reruns included) ends, that is when
//   `pulling` falls.
// - `goLive(channel, intervalMs)`: after the cache is shown, other tabs, the network coming back, visibility
//   and a timer ask for a pull (tab-signals.ts), and a first pull starts; the browser going offline is the
//   core's `wentOffline` event. `shutDown()` stops listening, cancels the requests in flight
//   (`requestOptions.signal`) and ends the pull run.
import { log } from '../log.ts';
import { isOnline, listenToTab, type TabSignals } from './tab-signals.ts';

/** What the shell reads of a core's state. */
export interface CoreState {
  /** A pull run is under way (from the request to its end, reruns included). */
  pulling: boolean;
  closed: boolean;
}

/** The effects every core answers: publish, pull, tell the other tabs, stop, save a change to the cache. */
export type ShellEffect<Change> =
  { type: 'emit' } | { type: 'pull' } | { type: 'announce' } | { type: 'stop' } | { type: 'save'; change: Change };

const shellEffects: ReadonlySet<string> = new Set(['emit', 'pull', 'announce', 'stop', 'save']);

/** The events every core knows: pull now; the browser is offline; a pull skipped (offline) or started. */
export type ShellEvent =
  { type: 'pullRequested' } | { type: 'wentOffline' } | { type: 'pullSkippedOffline' } | { type: 'pullStarted' };

export interface Core<State, Event, Effect, Snapshot> {
  initial: State;
  /** (Its event is `Event | ShellEvent`, so that a core without the shell's events does not type-check.) */
  step: (state: State, event: Event | ShellEvent) => { state: State; effects: Effect[] };
  /** The snapshot of a state; `previous` is the one published before, to reuse what did not change. */
  snapshotOf: (state: State, previous?: { state: State; snapshot: Snapshot }) => Snapshot;
}

export abstract class CoreShell<State extends CoreState, Event, Effect extends { type: string }, Snapshot, Change> {
  protected state: State;
  /** The state last published and its snapshot. */
  protected emitted: { state: State; snapshot: Snapshot };
  private signals: TabSignals | undefined;
  /** Cancels the requests in flight when the store shuts down. */
  private readonly aborter = new AbortController();
  protected readonly requestOptions = { signal: this.aborter.signal };
  private readonly listeners = new Set<() => void>();
  private pullRun: { done: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly core: Core<State, Event, Effect, Snapshot>) {
    this.state = core.initial;
    this.emitted = { state: core.initial, snapshot: core.snapshotOf(core.initial) };
  }

  /** One pull once started (online): every page since the cursors, then the core's verdict. */
  protected abstract pullOnce(): Promise<void>;
  /** Saves a change to the store's cache (awaited before the next effect). */
  protected abstract save(change: Change): Promise<void>;
  /** The store forgets its keys; the shell then stops listening and requesting. */
  protected abstract forget(): void;

  /** Runs an effect of the store's own (not a `ShellEffect`). */
  protected performOther(effect: Effect): void {
    throw new Error(`Unknown effect ${effect.type}`);
  }

  private perform(effect: Effect): Promise<void> | undefined {
    if (!shellEffects.has(effect.type)) {
      this.performOther(effect);
      return undefined;
    }
    const shellEffect = effect as unknown as ShellEffect<Change>;
    switch (shellEffect.type) {
      case 'save':
        return this.save(shellEffect.change);
      case 'emit':
        this.publish();
        return undefined;
      case 'pull':
        this.pullRun ??= deferred();
        void this.startPull();
        return undefined;
      case 'announce':
        this.announce();
        return undefined;
      case 'stop':
        this.forget();
        this.shutDown();
        return undefined;
    }
  }

  /** The current state: the same object until something changes. */
  snapshot(): Snapshot {
    return this.emitted.snapshot;
  }

  /** For useSyncExternalStore; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    const entry = () => listener();
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** Steps the core and runs its effects in order; a cache write is awaited before the effects after it. */
  protected async dispatch(event: Event | ShellEvent): Promise<void> {
    const wasPulling = this.state.pulling;
    const { state, effects } = this.core.step(this.state, event);
    this.state = state;
    if (wasPulling && !state.pulling) this.endPullRun();
    for (const effect of effects) {
      const performing = this.perform(effect);
      if (performing) {
        await performing;
        if (this.state.closed) return;
      }
    }
  }

  protected publish(): void {
    if (this.emitted.state !== this.state) {
      this.emitted = { state: this.state, snapshot: this.core.snapshotOf(this.state, this.emitted) };
    }
    for (const listener of [...this.listeners]) listener();
    if (this.state.closed) this.listeners.clear();
  }

  /** A pull, unless the browser says it is offline (then no request is made). */
  private async startPull(): Promise<void> {
    if (!isOnline()) {
      await this.dispatch({ type: 'pullSkippedOffline' });
      return;
    }
    await this.dispatch({ type: 'pullStarted' });
    await this.pullOnce();
  }

  /** Tells the other tabs that the store changed (they pull). */
  protected announce(): void {
    this.signals?.announce();
  }

  /** Asks the core for a pull and resolves when the pull run under way is over. */
  protected async pullAndWait(): Promise<void> {
    await this.dispatch({ type: 'pullRequested' });
    await this.pullRun?.done;
  }

  private endPullRun(): void {
    this.pullRun?.resolve();
    this.pullRun = undefined;
  }

  /** Shows the state, then pulls when another tab on `channel` says it changed, the network is back, the tab is shown, every `intervalMs`, and now. */
  protected async goLive(channel: string, intervalMs: number): Promise<void> {
    if (!isOnline()) await this.dispatch({ type: 'wentOffline' });
    this.publish();
    this.signals = listenToTab({
      channel,
      intervalMs,
      onPull: () => void this.pullAndWait(),
      onOffline: () => void this.dispatch({ type: 'wentOffline' }),
      onAnnounceFailed: (e) => log.warn('Could not tell the other tabs about a change', e),
    });
    void this.pullAndWait();
  }

  /** Stops listening, cancels the requests in flight, and ends the pull run (its waiters resolve). */
  private shutDown(): void {
    this.signals?.stop();
    this.signals = undefined;
    this.aborter.abort();
    this.endPullRun();
  }
}

function deferred(): { done: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const done = new Promise<void>((settle) => (resolve = settle));
  return { done, resolve };
}
