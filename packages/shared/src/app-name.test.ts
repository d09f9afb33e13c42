import { appName, clientPackage, setAppName } from './app-name.ts';

test('the client package names the app', () => {
  expect(() => appName()).toThrow(/not been set/);
  setAppName('auth');
  expect(appName()).toBe('auth');
  expect(clientPackage()).toBe('io.ente.auth.web');
  setAppName('cast');
  expect(clientPackage()).toBe('io.ente.cast.web');
});
