// The client address behind proxies (docs/decisions.md#security-second-pass-addresses-quota-tokens), over real
// HTTP: TRUST_PROXY names the operator's proxies (a hop count or addresses and ranges), the client is the
// right-most X-Forwarded-For address that is not one of them, so what a client writes to the left is
// ignored; settings that would trust every hop are refused at start; per-address limits count an IPv6
// client by its /64 (an IPv4-mapped address as its IPv4), while the sessions list shows the real address.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { EmailAuthorizationResponse, SessionsResponse } from '@ente/protocol';

import { ConfigError, loadConfig } from '../config.ts';
import type { ApiClient } from '../testing/client.ts';
import { uniqueEmail } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const MINUTE = 60_000_000;
const forwardedFor = (chain: string) => ({ headers: { 'X-Forwarded-For': chain } });

describe('TRUST_PROXY at start', () => {
  const load = (value: string) => loadConfig({ DATA_DIR: 'memory://', TRUST_PROXY: value }).TRUST_PROXY;

  test('a setting that would trust every hop is refused, saying what to write instead', () => {
    for (const value of [
      'true',
      'TRUE',
      'yes',
      '*',
      '0.0.0.0/0',
      '::/0',
      '::ffff:0:0/96',
      '::/80',
      '0.0.0.0/1',
      '2000::/3',
      '10.0.0.1, 0.0.0.0/0',
      '11',
    ]) {
      assert.throws(
        () => load(value),
        (error: unknown) =>
          error instanceof ConfigError &&
          /TRUST_PROXY: /.test(error.message) &&
          /the number of proxies in front of the server|addresses instead/.test(error.message),
        value,
      );
    }
  });

  test('what is not an address is refused', () => {
    for (const value of ['proxy.example', '10.0.0.1/33', '10.0.0.1/8/8', '10.0.0.0/255.0.0.0', 'fe80::1%eth0']) {
      assert.throws(() => load(value), ConfigError, value);
    }
  });

  test('a hop count (1 is one proxy), a list of addresses and ranges, or nothing', () => {
    assert.deepEqual(load('1'), { kind: 'hops', count: 1 });
    assert.deepEqual(load('2'), { kind: 'hops', count: 2 });
    for (const off of ['false', 'no', '0', '']) assert.deepEqual(load(off), { kind: 'none' }, off);
    const listed = load(' 127.0.0.1, 10.0.0.0/8 ,::1,fc00::/7,loopback ');
    assert.ok(listed.kind === 'ranges');
    assert.deepEqual(
      listed.ranges.map((range) => range.text),
      ['127.0.0.1', '10.0.0.0/8', '::1', 'fc00::/7', '127.0.0.0/8', '::1/128'],
    );
  });
});

/** GET /users/srp/attributes (limited per address) with X-Forwarded-For `chain`: its status. */
function limitedRoute(api: ApiClient): (chain: string) => Promise<number> {
  return async (chain) =>
    (await api.get('/users/srp/attributes', { query: { email: 'x@example.org' }, ...forwardedFor(chain) })).status;
}

/** `count` requests by `send`, the i-th from the chain `chain(i)`; their statuses. */
async function statuses(send: (chain: string) => Promise<number>, chain: (i: number) => string, count: number) {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push(await send(chain(i)));
  return answers;
}

/** The first 10 answered (whatever the route says of an unknown address), the other 5 refused. */
function assertLimitedAfterTen(answers: number[]) {
  assert.deepEqual(
    answers.map((status) => status === 429),
    [...Array<boolean>(10).fill(false), ...Array<boolean>(5).fill(true)],
  );
}

describe('one reverse proxy by hop count (TRUST_PROXY=1)', () => {
  const { server, api } = suiteServer({ env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '10' } });

  test('the address the proxy wrote counts; left-most entries the client wrote are ignored', async () => {
    server.clock.advance(MINUTE);
    const route = limitedRoute(api);
    assertLimitedAfterTen(await statuses(route, (i) => `198.18.0.${i}, 203.0.113.9`, 15));
    assert.notEqual(await route('203.0.113.10'), 429, 'another client has its own count');
  });
});

describe('proxies by address (TRUST_PROXY=127.0.0.1,10.0.0.0/8)', () => {
  const { server, api } = suiteServer({ env: { TRUST_PROXY: '127.0.0.1,10.0.0.0/8', RATE_LIMIT_PER_MINUTE: '10' } });
  const route = () => limitedRoute(api);

  test('the right-most address that is no trusted proxy is the client, whatever stands left of it', async () => {
    server.clock.advance(MINUTE);
    // Two trusted hops (the socket's 127.0.0.1 and 10.1.2.3) in front of the client 198.51.100.7.
    assertLimitedAfterTen(await statuses(route(), (i) => `198.18.${i}.1, 198.51.100.7, 10.1.2.3`, 15));
    assert.notEqual(await route()('198.51.100.8, 10.1.2.3'), 429);
  });

  test('an untrusted hop ends the chain: what it forwarded is not believed', async () => {
    server.clock.advance(MINUTE);
    // 192.0.2.1 is not a listed proxy, so it is the client, whatever it says it forwarded.
    assertLimitedAfterTen(await statuses(route(), (i) => `198.51.100.${i}, 192.0.2.1`, 15));
  });

  test('without X-Forwarded-For the socket address is the client', async () => {
    server.clock.advance(MINUTE);
    const bare = async () => (await api.get('/users/srp/attributes', { query: { email: 'x@example.org' } })).status;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await bare());
    assert.equal(statuses.at(-1), 429);
  });
});

describe('two proxies by hop count (TRUST_PROXY=2)', () => {
  const { server, api } = suiteServer({ env: { TRUST_PROXY: '2', RATE_LIMIT_PER_MINUTE: '10' } });

  test('the entry left of the nearest proxy is the client; entries further left are ignored', async () => {
    server.clock.advance(MINUTE);
    assertLimitedAfterTen(await statuses(limitedRoute(api), (i) => `198.18.0.${i}, 198.51.100.7, 10.0.0.5`, 15));
  });
});

describe('IPv6 clients are counted by their /64', () => {
  const { server, api } = suiteServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  const otherCode = (code: string) => (code === '000000' ? '000001' : '000000');
  const guess = async (email: string, ott: string, from: string) =>
    (await api.post('/users/verify-email', { email, ott }, { ...forwardedFor(from), token: null })).status;

  test('three addresses of one /64 share one address’s code tries; another /64 has its own', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' }, { token: null });
    const code = server.mail.lastCode(email);
    const wrong = otherCode(code);
    // 9 tries per address and code lifetime: three by each of three addresses of 2001:db8:1:1::/64.
    for (const address of ['2001:db8:1:1::1', '2001:db8:1:1:a:b:c:d', '2001:db8:1:1:ffff:ffff:ffff:ffff']) {
      for (let i = 0; i < 3; i++) assert.equal(await guess(email, wrong, address), 401, address);
    }
    assert.equal(await guess(email, code, '2001:db8:1:1::beef'), 429, 'a fourth address of the /64 has no tries left');
    assert.equal(await guess(email, code, '2001:db8:1:2::1'), 200, 'the next /64 has its own');
  });

  test('an IPv4-mapped IPv6 address is its IPv4 address', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' }, { token: null });
    const code = server.mail.lastCode(email);
    for (let i = 0; i < 9; i++) assert.equal(await guess(email, otherCode(code), '192.0.2.44'), 401);
    assert.equal(await guess(email, code, '::ffff:192.0.2.44'), 429);
    assert.equal(await guess(email, code, '192.0.2.45'), 200);
  });

  test('the sessions list shows the whole address, not its /64', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' }, { token: null });
    const verified = await api.post<EmailAuthorizationResponse>(
      '/users/verify-email',
      { email, ott: server.mail.lastCode(email) },
      { ...forwardedFor('2001:db8:5:6:7:8:9:a'), token: null },
    );
    assert.equal(verified.status, 200, verified.text);
    const sessions = await api.get<SessionsResponse>('/users/sessions', { token: verified.body.token ?? '' });
    assert.deepEqual(
      sessions.body.sessions.map((session) => session.ip),
      ['2001:db8:5:6:7:8:9:a'],
    );
  });
});
