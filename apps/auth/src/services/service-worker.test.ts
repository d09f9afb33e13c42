// Registering the service worker: what it registers, when it does nothing, how a waiting update is
// offered and applied, and that no page module reaches this code statically (only the lazily loaded
// vault page does), so the signed-out first load neither fetches nor installs a worker.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { reloadAt } from '@ente/shared/app/navigation.ts';

import { registerServiceWorker } from './service-worker.ts';

jest.mock('@ente/shared/app/navigation.ts', () => ({ reloadAt: jest.fn() }));

class FakeTarget {
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  removeEventListener() {}
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener(new Event(type));
  }
}

class FakeWorker extends FakeTarget {
  state = 'installing';
  postMessage = jest.fn();
}

class FakeRegistration extends FakeTarget {
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;
}

class FakeContainer extends FakeTarget {
  controller: object | null = null;
  registration = new FakeRegistration();
  register = jest.fn((_url: string, _options?: RegistrationOptions) => Promise.resolve(this.registration));
}

let container: FakeContainer;
const reload = jest.mocked(reloadAt);

beforeEach(() => {
  container = new FakeContainer();
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  reload.mockClear();
});

test('registers /sw.js for the whole app, revalidating the script itself every time', async () => {
  await registerServiceWorker();
  expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
});

test('does nothing outside a secure context or without service workers', async () => {
  Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
  await registerServiceWorker();
  expect(container.register).not.toHaveBeenCalled();

  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  await expect(registerServiceWorker()).resolves.toBeUndefined();
});

test('a failed registration is not thrown', async () => {
  container.register.mockImplementation(() => Promise.reject(new Error('SecurityError')));
  await expect(registerServiceWorker({ onUpdateReady: jest.fn() })).resolves.toBeUndefined();
});

test('the first install is not offered as an update', async () => {
  const onUpdateReady = jest.fn();
  await registerServiceWorker({ onUpdateReady });
  const worker = new FakeWorker();
  container.registration.installing = worker;
  container.registration.emit('updatefound');
  worker.state = 'installed';
  worker.emit('statechange');
  expect(onUpdateReady).not.toHaveBeenCalled();
});

test('a new version installed while one runs is offered; applying it switches and reloads', async () => {
  container.controller = {};
  const onUpdateReady = jest.fn<(apply: () => void) => void>();
  await registerServiceWorker({ onUpdateReady });
  const worker = new FakeWorker();
  container.registration.installing = worker;
  container.registration.emit('updatefound');
  expect(onUpdateReady).not.toHaveBeenCalled();
  worker.state = 'installed';
  worker.emit('statechange');
  expect(onUpdateReady).toHaveBeenCalledTimes(1);

  const apply = onUpdateReady.mock.calls[0]![0];
  apply();
  expect(worker.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  expect(reload).not.toHaveBeenCalled();
  container.emit('controllerchange');
  expect(reload).toHaveBeenCalledWith(window.location.href);
});

test('a version already waiting from an earlier visit is offered at once', async () => {
  container.controller = {};
  container.registration.waiting = new FakeWorker();
  const onUpdateReady = jest.fn();
  await registerServiceWorker({ onUpdateReady });
  expect(onUpdateReady).toHaveBeenCalledTimes(1);
});

describe('signed-out pages do not reach the registration', () => {
  const src = path.resolve(__dirname, '..');
  const target = path.join(src, 'services', 'service-worker.ts');

  /** Files of this app that `file` imports statically (not `import type`, not `import()`). */
  function staticImports(file: string): string[] {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^\s*import\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)';/gm),
      ...text.matchAll(/^\s*export\s+(?!type\b)[^'";]*?\sfrom\s+'([^']+)';/gm),
    ].map((match) => match[1] ?? '');
    return specifiers.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s));
  }

  function reachable(entry: string): Set<string> {
    const seen = new Set<string>();
    const queue = [entry];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...staticImports(file));
    }
    return seen;
  }

  function pages(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return pages(full);
      return /\.tsx?$/.test(name) && !name.includes('.test.') ? [full] : [];
    });
  }

  test('the walk follows static imports only (controls)', () => {
    const fromShare = reachable(path.join(src, 'pages', 'share.tsx'));
    expect(fromShare.has(path.join(src, 'services', 'ticker.ts'))).toBe(true);
    // share.tsx imports share.ts for its types and loads it with import() only.
    expect(fromShare.has(path.join(src, 'services', 'share.ts'))).toBe(false);
    // The vault page, which pages/auth.tsx loads with import() once signed in, registers it.
    expect(reachable(path.join(src, 'components', 'VaultPage.tsx')).has(target)).toBe(true);
  });

  test.each(pages(path.join(src, 'pages')).map((file) => path.relative(src, file)))('%s', (page) => {
    expect(reachable(path.join(src, page)).has(target)).toBe(false);
  });
});
