// App scoping (docs/protocol.md#transport): the app a request belongs to comes from its X-Client-Package header.
// OTTs and tokens are stored per app, so a token issued to the auth app is refused by photos.

export type ClientApp = 'auth' | 'locker' | 'photos';

export function clientAppOf(clientPackage: string | string[] | undefined): ClientApp {
  const value = Array.isArray(clientPackage) ? clientPackage[0] : clientPackage;
  if (value?.startsWith('io.ente.auth')) return 'auth';
  if (value?.startsWith('io.ente.locker')) return 'locker';
  return 'photos';
}

/**
 * The client of a request as the services see it (built by http/request-client.ts): its address and its
 * User-Agent header as sent (undefined when absent). A plain type, so services need no Fastify.
 */
export interface RequestClient {
  ip: string;
  userAgent: string | undefined;
}
