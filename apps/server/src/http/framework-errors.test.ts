// Refusals made before a route runs, sent over raw sockets because fetch can't send them: each answers
// in the protocol's typed shape {code, message} (docs/protocol.md#errors) with the right status and a
// message of ours, never Fastify's or Node's own bodies, error codes or an echo of the input.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';

import { suiteServer } from '../testing/server.ts';
import { BODY_DEADLINE_MS } from './body-deadlines.ts';

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends `request` as it is on a new connection and reads the answer until the server closes it. */
async function send(port: number, request: string | Buffer, onConnected?: () => void): Promise<RawAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The server may close while the request is still being written (a reset, after its answer).
  socket.on('error', () => {});
  await once(socket, 'connect');
  onConnected?.();
  socket.write(request);
  socket.setTimeout(5000, () => socket.destroy());
  await once(socket, 'close');
  return parseAnswer(Buffer.concat(chunks).toString('utf8'));
}

function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  assert.ok(end > 0, `no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  let body = text.slice(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function unchunk(text: string): string {
  let body = '';
  for (let rest = text; ;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** The answer is `status` with exactly `{code, message}` as JSON, and shows nothing of the framework. */
function assertTyped(answer: RawAnswer, status: number, code: string, message: string): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(JSON.parse(answer.body), { code, message });
}

const host = 'Host: localhost\r\nConnection: close\r\n';
const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\n${host}${headers}\r\n`;
const post = (path: string, headers: string, body = '') => `POST ${path} HTTP/1.1\r\n${host}${headers}\r\n${body}`;

describe('refusals before a route runs', () => {
  const { server } = suiteServer();
  const port = () => Number(new URL(server.url).port);
  const badRequest = (message: string) => ['BAD_REQUEST', message] as const;

  describe("Fastify's router", () => {
    for (const path of ['/users/%E0%A4%A', '/passkeys/%zz', '/authenticator/entity/%']) {
      test(`a path that does not percent-decode (${path}) is 400`, async () => {
        const answer = await send(port(), get(path));
        assertTyped(answer, 400, ...badRequest('URL: invalid percent-encoding'));
      });
    }

    test('a path parameter over 200 characters is 414', async () => {
      const long = 'a'.repeat(300);
      const answer = await send(port(), `DELETE /passkeys/${long} HTTP/1.1\r\n${host}\r\n`);
      assertTyped(answer, 414, ...badRequest('URL: a path segment is too long'));
      assert.ok(!answer.body.includes(long));
    });
  });

  describe("Node's HTTP parser", () => {
    test('headers over the size limit are 431', async () => {
      const answer = await send(port(), get('/ping', `X-Padding: ${'a'.repeat(20_000)}\r\n`));
      assertTyped(answer, 431, ...badRequest('request line or headers are too large'));
    });

    test('a URL over the header size limit is 431', async () => {
      const answer = await send(port(), get(`/ping?x=${'a'.repeat(20_000)}`));
      assertTyped(answer, 431, ...badRequest('request line or headers are too large'));
    });

    const malformed: Record<string, string> = {
      'a malformed request line': 'GARBAGE\r\n\r\n',
      'an invalid method': `F(O /ping HTTP/1.1\r\n${host}\r\n`,
      'an unknown method': `FOO /ping HTTP/1.1\r\n${host}\r\n`,
      'an unknown HTTP version': `GET /ping HTTP/9.9\r\n${host}\r\n`,
      "HTTP/2's preface": 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      'a control character in a header value': get('/ping', 'X-A: a\u0001b\r\n'),
      'a space in a header name': get('/ping', 'X A: b\r\n'),
      'a bad chunk size': post(
        '/users/ott',
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n',
        'zz\r\nabc\r\n0\r\n\r\n',
      ),
      'two different Content-Lengths': post('/users/ott', 'Content-Length: 2\r\nContent-Length: 3\r\n', '{}'),
      'a duplicated Content-Length': post('/users/ott', 'Content-Length: 2\r\nContent-Length: 2\r\n', '{}'),
      'Content-Length with Transfer-Encoding': post(
        '/users/ott',
        'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n',
        '0\r\n\r\n',
      ),
    };
    for (const [name, request] of Object.entries(malformed)) {
      test(`${name} is 400`, async () => {
        assertTyped(await send(port(), request), 400, ...badRequest('malformed HTTP request'));
      });
    }

    test('a request not received in time is 408', async () => {
      // Node looks for late requests every 30 seconds and reports one as this event on its socket;
      // the test raises the event itself instead of waiting a minute and a half.
      const connection = once(server.app.server, 'connection') as Promise<[net.Socket]>;
      const answer = send(
        port(),
        post('/users/ott', 'Content-Type: application/json\r\nContent-Length: 100\r\n', '{"email":'),
        () => {
          void connection.then(([socket]) => {
            const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
            setTimeout(() => server.app.server.emit('clientError', timeout, socket), 50);
          });
        },
      );
      assertTyped(await answer, 408, ...badRequest('request not received in time'));
    });

    test("Node's one deadline is off for the per-request ones (body-deadlines.ts); headers still have a minute", () => {
      assert.equal(server.app.server.requestTimeout, 0);
      assert.equal(server.app.server.headersTimeout, 60_000);
      assert.equal(BODY_DEADLINE_MS, 60_000);
    });

    test('HTTP/1.1 without Host is 400', async () => {
      const answer = await send(port(), 'GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n');
      assertTyped(answer, 400, ...badRequest('missing Host header'));
      assert.ok(answer.headers.get('x-request-id'));
    });

    test('HTTP/1.0 without Host is still served', async () => {
      assert.equal((await send(port(), 'GET /ping HTTP/1.0\r\n\r\n')).status, 200);
    });

    test('an Expect other than 100-continue is 417', async () => {
      const answer = await send(port(), post('/users/ott', 'Expect: the-unexpected\r\nContent-Length: 2\r\n', '{}'));
      assertTyped(answer, 417, ...badRequest('unsupported Expect header'));
    });

    test('CONNECT is 404', async () => {
      const answer = await send(port(), `CONNECT localhost:443 HTTP/1.1\r\n${host}\r\n`);
      assertTyped(answer, 404, 'NOT_FOUND', 'no such route');
    });
  });

  // These were in the protocol's shape already; kept here so that every refusal is covered on the wire.
  describe("Fastify's body handling and routing", () => {
    const json = 'Content-Type: application/json\r\n';
    test('an unparsable Content-Type is 415 (http/content-type.ts)', async () => {
      for (const type of ['', ';;;', 'a b/c']) {
        const answer = await send(port(), post('/users/ott', `Content-Type: ${type}\r\nContent-Length: 2\r\n`, '{}'));
        assertTyped(answer, 415, 'BAD_REQUEST', 'unsupported content type: send the body as application/json');
      }
    });

    test('invalid JSON is 400', async () => {
      const answer = await send(port(), post('/users/ott', `${json}Content-Length: 3\r\n`, '{a}'));
      assertTyped(answer, 400, ...badRequest('body: invalid JSON'));
    });

    test('an empty body where one is required is 400 naming the body', async () => {
      const answer = await send(port(), post('/users/ott', `${json}Content-Length: 0\r\n`));
      assert.equal(answer.status, 400);
      const body = JSON.parse(answer.body) as { code: string; message: string };
      assert.equal(body.code, 'BAD_REQUEST');
      assert.match(body.message, /^body: /);
    });

    test('a body over the limit is 413, declared or chunked', async () => {
      const declared = await send(port(), post('/users/ott', `${json}Content-Length: 2000000\r\n`, '{}'));
      assertTyped(declared, 413, ...badRequest('request body is too large'));
      const size = 0x180000;
      const chunked = await send(
        port(),
        post(
          '/users/ott',
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n',
          `${size.toString(16)}\r\n${'a'.repeat(size)}\r\n0\r\n\r\n`,
        ),
      );
      assertTyped(chunked, 413, ...badRequest('request body is too large'));
    });

    test('a wrong method on an existing path is 404', async () => {
      const answer = await send(port(), `PUT /ping HTTP/1.1\r\n${host}Content-Length: 0\r\n\r\n`);
      assertTyped(answer, 404, 'NOT_FOUND', 'no such route');
    });

    test('a query string with thousands of parameters is an ordinary 400', async () => {
      const query = Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&');
      const answer = await send(port(), get(`/users/srp/attributes?${query}`));
      assert.equal(answer.status, 400);
      assert.match((JSON.parse(answer.body) as { message: string }).message, /^email: /);
    });

    test('OPTIONS is an empty 200 and HEAD carries no body', async () => {
      const options = await send(port(), `OPTIONS /users/ott HTTP/1.1\r\n${host}\r\n`);
      assert.deepEqual([options.status, options.body], [200, '']);
      const head = await send(port(), `HEAD /nope HTTP/1.1\r\n${host}\r\n`);
      assert.deepEqual([head.status, head.body], [404, '']);
    });
  });
});
