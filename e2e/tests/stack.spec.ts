// The stack is wired as `npm start` promises: each app at its own origin with the security headers,
// its CSP letting it reach the local server, and the server answering /ping with CORS for each app.
import { expect, test } from '@playwright/test';

import { appUrl, serverUrl, type AppName } from '../stack.ts';

const apps: AppName[] = ['photos', 'accounts', 'auth', 'cast'];

for (const app of apps) {
  test(`${app} is served with the security headers`, async ({ request }) => {
    const response = await request.get(`${appUrl(app)}/login`);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toMatch(new RegExp(`connect-src 'self' [^;]*${serverUrl}`));
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  test(`the server answers /ping and allows ${app}'s origin`, async ({ request }) => {
    const response = await request.get(`${serverUrl}/ping`, { headers: { Origin: appUrl(app) } });
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ message: 'pong' });
    expect(response.headers()['access-control-allow-origin']).toBe(appUrl(app));
  });
}
