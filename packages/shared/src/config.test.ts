// config.ts reads the environment when it is loaded, so each case loads a fresh copy.
import type * as ConfigModule from './config.ts';

type Config = typeof ConfigModule;

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

function loadConfig(env: Record<string, string | undefined>): Config {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
  let config: Config | undefined;
  jest.isolateModules(() => {
    config = jest.requireActual<Config>('./config.ts');
  });
  return config!;
}

test('without build settings the hosted origins are used', () => {
  const config = loadConfig({ NEXT_PUBLIC_ENTE_ENDPOINT: undefined, NEXT_PUBLIC_ENTE_ACCOUNTS_URL: undefined });
  expect(config.buildApiOrigin).toBe('https://api.ente.com');
  expect(config.buildAccountsAppOrigin).toBe('https://accounts.ente.com');
});

test('an empty build setting counts as unset', () => {
  const config = loadConfig({ NEXT_PUBLIC_ENTE_ENDPOINT: '', NEXT_PUBLIC_ENTE_ACCOUNTS_URL: '' });
  expect(config.buildApiOrigin).toBe('https://api.ente.com');
  expect(config.buildAccountsAppOrigin).toBe('https://accounts.ente.com');
});

test('the build settings override the defaults, without a trailing slash', () => {
  const config = loadConfig({
    NEXT_PUBLIC_ENTE_ENDPOINT: 'http://localhost:8080/',
    NEXT_PUBLIC_ENTE_ACCOUNTS_URL: 'http://localhost:3001',
  });
  expect(config.buildApiOrigin).toBe('http://localhost:8080');
  expect(config.buildAccountsAppOrigin).toBe('http://localhost:3001');
});

test('the app origins are a comma list, trimmed, without trailing slashes; unset is none', () => {
  expect(loadConfig({ NEXT_PUBLIC_ENTE_APP_ORIGINS: undefined }).buildAppOrigins).toEqual([]);
  expect(
    loadConfig({ NEXT_PUBLIC_ENTE_APP_ORIGINS: ' http://localhost:3003/, https://photos.example.org,' })
      .buildAppOrigins,
  ).toEqual(['http://localhost:3003', 'https://photos.example.org']);
});

test('console logging is for development builds only', () => {
  expect(loadConfig({ NODE_ENV: 'development' }).isDevBuild).toBe(true);
  expect(loadConfig({ NODE_ENV: 'production' }).isDevBuild).toBe(false);
});
