import type * as LogModule from './log.ts';
import { log, maxLogEntries, savedLogs } from './log.ts';

afterEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

test('entries are {logLine, timestamp} in local storage under logs', () => {
  jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
  log.info('started');
  log.warn('odd', 'detail');
  log.error('failed', new Error('boom'));
  expect(JSON.parse(localStorage.getItem('logs')!)).toEqual([
    { logLine: '[info] started', timestamp: 1_700_000_000_000 },
    { logLine: '[warn] odd: detail', timestamp: 1_700_000_000_000 },
    { logLine: '[error] failed: Error: boom', timestamp: 1_700_000_000_000 },
  ]);
});

test(`keeps the newest ${maxLogEntries} entries`, () => {
  const old = Array.from({ length: maxLogEntries }, (_, i) => ({ logLine: `old ${i}`, timestamp: i }));
  localStorage.setItem('logs', JSON.stringify(old));
  log.info('new 1');
  log.info('new 2');
  const entries = savedLogs();
  expect(entries).toHaveLength(maxLogEntries);
  expect(entries[0]?.logLine).toBe('old 2');
  expect(entries.at(-1)?.logLine).toBe('[info] new 2');
  expect(JSON.parse(localStorage.getItem('logs')!)).toHaveLength(maxLogEntries);
});

test('a quota-exceeded error while writing clears the stored logs', () => {
  log.info('before');
  const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('full', 'QuotaExceededError');
  });
  expect(() => log.info('too much')).not.toThrow();
  setItem.mockRestore();
  expect(localStorage.getItem('logs')).toBeNull();
  log.info('after');
  expect(savedLogs().map((entry) => entry.logLine)).toEqual(['[info] after']);
});

test('other storage errors neither throw nor clear the log', () => {
  log.info('before');
  jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('denied', 'SecurityError');
  });
  expect(() => log.info('lost')).not.toThrow();
  jest.restoreAllMocks();
  expect(savedLogs().map((entry) => entry.logLine)).toEqual(['[info] before']);
});

test('an unreadable stored log is started afresh', () => {
  localStorage.setItem('logs', '{broken');
  log.info('fresh');
  expect(savedLogs().map((entry) => entry.logLine)).toEqual(['[info] fresh']);
});

test('secret-looking fields of logged objects are redacted', () => {
  log.info('response', { id: 1, token: 'T0K', keyAttributes: { kekSalt: 's' }, ott: '123456', email: 'a@b.c' });
  const line = savedLogs()[0]!.logLine;
  expect(line).toBe(
    '[info] response: {"id":1,"token":"[redacted]","keyAttributes":"[redacted]","ott":"[redacted]","email":"a@b.c"}',
  );
  expect(line).not.toContain('T0K');
});

test('errors are logged with their cause', () => {
  log.error('outer', new Error('wrapped', { cause: new TypeError('inner') }));
  expect(savedLogs()[0]?.logLine).toBe('[error] outer: Error: wrapped (cause: TypeError: inner)');
});

test('nothing goes to the console outside development', () => {
  const consoleLog = jest.spyOn(console, 'log').mockImplementation(() => {});
  log.info('quiet');
  expect(consoleLog).not.toHaveBeenCalled();
});

test('development builds also write to the console', () => {
  const env = process.env as Record<string, string | undefined>;
  const nodeEnv = env.NODE_ENV;
  env.NODE_ENV = 'development';
  const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    jest.isolateModules(() => {
      jest.requireActual<typeof LogModule>('./log.ts').log.warn('loud');
    });
  } finally {
    env.NODE_ENV = nodeEnv;
  }
  expect(consoleWarn).toHaveBeenCalledWith('[warn] loud');
});
