// Which app of the family this bundle is. It names the client package sent on every request
// (X-Client-Package), which the server uses to scope one-time codes and tokens per app.

export type AppName = 'auth' | 'accounts' | 'photos' | 'cast';

let currentAppName: AppName | undefined;

/** Called once by the app shell, before anything talks to the server. */
export function setAppName(name: AppName): void {
  currentAppName = name;
}

/** The app's name; throws if the shell has not set it, because a wrong package would scope tokens wrongly. */
export function appName(): AppName {
  if (!currentAppName) throw new Error('The app name has not been set (setAppName)');
  return currentAppName;
}

/** The value of X-Client-Package, e.g. `io.ente.auth.web`. */
export function clientPackage(): string {
  return `io.ente.${appName()}.web`;
}
