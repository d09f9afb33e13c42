/**
 * @jest-environment node
 */
import { CoreShell, type ShellEffect } from './core-shell.ts';

interface State {
  pulling: boolean;
  closed: boolean;
  count: number;
}
type Event = {
  type:
    | 'pullRequested'
    | 'wentOffline'
    | 'pullSkippedOffline'
    | 'pullStarted'
    | 'pulled'
    | 'add'
    | 'lastSave'
    | 'close'
    | 'nothing';
};
type Effect = ShellEffect<number> | { type: 'own' };

/** A core: `add` saves then emits; `pullRequested` starts a run that `pulled` ends; `close` stops and emits. */
function step(state: State, event: Event): { state: State; effects: Effect[] } {
  switch (event.type) {
    case 'pullRequested':
      return { state: { ...state, pulling: true }, effects: [{ type: 'pull' }] };
    case 'pulled':
      return { state: { ...state, pulling: false }, effects: [{ type: 'emit' }] };
    case 'add':
      return {
        state: { ...state, count: state.count + 1 },
        effects: [{ type: 'save', change: state.count + 1 }, { type: 'own' }, { type: 'emit' }],
      };
    case 'lastSave':
      return { state: { ...state, closed: true }, effects: [{ type: 'save', change: 0 }, { type: 'own' }] };
    case 'close':
      return { state: { ...state, pulling: false, closed: true }, effects: [{ type: 'stop' }, { type: 'emit' }] };
    case 'wentOffline':
    case 'pullSkippedOffline':
    case 'pullStarted':
    case 'nothing':
      return { state, effects: [{ type: 'announce' }, { type: 'emit' }] };
  }
}

/** A store on that core, recording what the shell asks of it. */
class Store extends CoreShell<State, Event, Effect, { count: number }, number> {
  readonly calls: string[] = [];

  constructor() {
    super({
      initial: { pulling: false, closed: false, count: 0 },
      step,
      snapshotOf: (state) => ({ count: state.count }),
    });
  }

  send(type: Event['type']): Promise<void> {
    return this.dispatch({ type });
  }

  waitForPull(): Promise<void> {
    return this.pullAndWait();
  }

  tell(): void {
    this.publish();
  }

  protected async pullOnce(): Promise<void> {
    this.calls.push('pullOnce');
    await Promise.resolve();
  }

  protected async save(change: number): Promise<void> {
    await Promise.resolve();
    this.calls.push(`saved ${String(change)}`);
  }

  protected forget(): void {
    this.calls.push('forget');
  }

  protected performOther(effect: Effect): void {
    this.calls.push(effect.type);
  }
}

test('a save is awaited before the effects after it; the store’s own effects go to performOther', async () => {
  const store = new Store();
  const listener = jest.fn();
  store.subscribe(listener);
  await store.send('add');
  expect(store.calls).toEqual(['saved 1', 'own']);
  expect(store.snapshot()).toEqual({ count: 1 });
  expect(listener).toHaveBeenCalledTimes(1);
});

test('the same state keeps the same snapshot object; listeners are still told', async () => {
  const store = new Store();
  await store.send('add');
  const before = store.snapshot();
  const listener = jest.fn();
  store.subscribe(listener);
  await store.send('nothing');
  expect(store.snapshot()).toBe(before);
  expect(listener).toHaveBeenCalledTimes(1);
});

test('a pull asked for runs once and resolves when its run ends', async () => {
  const store = new Store();
  let done = false;
  const waiting = store.waitForPull().then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  expect(store.calls).toEqual(['pullOnce']);
  expect(done).toBe(false);
  await store.send('pulled');
  await waiting;
  expect(done).toBe(true);
});

test('nothing runs after a save once the state is closed', async () => {
  const store = new Store();
  await store.send('lastSave');
  expect(store.calls).toEqual(['saved 0']);
});

test('stop: the store forgets, a waiting pull resolves, the listeners hear it once and are dropped', async () => {
  const store = new Store();
  const waiting = store.waitForPull();
  const listener = jest.fn();
  store.subscribe(listener);
  await store.send('close');
  await waiting;
  expect([...store.calls].sort()).toEqual(['forget', 'pullOnce']);
  expect(listener).toHaveBeenCalledTimes(1);
  store.tell();
  expect(listener).toHaveBeenCalledTimes(1);
});
