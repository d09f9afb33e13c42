// serveWorkerMethods (worker-rpc.ts): with progressEveryMs, a call's progress reports are thinned to one per
// interval (the first at once), and the answer still comes.
import { serveWorkerMethods } from './worker-rpc.ts';

function fakeScope() {
  const posted: unknown[] = [];
  let listener: ((event: MessageEvent) => void) | undefined;
  return {
    posted,
    scope: {
      postMessage: (message: unknown) => void posted.push(message),
      addEventListener: (_type: 'message', l: (event: MessageEvent) => void) => void (listener = l),
    },
    send: (data: unknown) => listener?.({ data } as MessageEvent),
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

test('posts every progress report by default', async () => {
  const { posted, scope, send } = fakeScope();
  serveWorkerMethods(scope, {
    work: (_args: never, progress: (n: number) => void) => [1, 2, 3].forEach(progress),
  });
  send({ id: 1, method: 'work', args: undefined });
  await settled();
  expect(posted).toEqual([
    { id: 1, progress: 1 },
    { id: 1, progress: 2 },
    { id: 1, progress: 3 },
    { id: 1, ok: true, value: undefined },
  ]);
});

test('with progressEveryMs, posts a report only once the interval has passed since the last one', async () => {
  const { posted, scope, send } = fakeScope();
  let clock = 0;
  serveWorkerMethods(
    scope,
    {
      work: (_args: never, progress: (n: number) => void) => {
        for (const [at, value] of [
          [0, 1],
          [100, 2],
          [249, 3],
          [250, 4],
          [400, 5],
          [600, 6],
        ]) {
          clock = at ?? 0;
          progress(value ?? 0);
        }
        return 'ok';
      },
    },
    undefined,
    { progressEveryMs: 250, now: () => clock },
  );
  send({ id: 7, method: 'work', args: undefined });
  await settled();
  expect(posted).toEqual([
    { id: 7, progress: 1 },
    { id: 7, progress: 4 },
    { id: 7, progress: 6 },
    { id: 7, ok: true, value: 'ok' },
  ]);
});
