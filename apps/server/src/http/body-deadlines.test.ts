// The per-request body deadlines, on a small Fastify app with the server's client-error answer and a
// deadline of 300 ms: a JSON body must arrive whole in time, an object body only must not stall.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import Fastify, { type FastifyInstance } from 'fastify';

import { registerBodyDeadlines } from './body-deadlines.ts';
import { answerClientError } from './errors.ts';

const deadlineMs = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('body deadlines', () => {
  let app: FastifyInstance;
  let port: number;

  before(async () => {
    app = Fastify({ requestTimeout: 0, clientErrorHandler: answerClientError });
    registerBodyDeadlines(app, deadlineMs);
    app.post('/json', (request) => ({ got: request.body }));
    void app.register((scope, _options, done) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));
      scope.put('/raw', { config: { rawBody: true } }, async (request) => {
        let bytes = 0;
        for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length;
        return { bytes };
      });
      done();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  after(() => app.close());

  /** Sends the head, then each chunk after its pause; answers the status line and body the server wrote. */
  async function send(head: string, chunks: { after: number; bytes: string }[]) {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    socket.write(head);
    for (const chunk of chunks) {
      await pause(chunk.after);
      if (socket.destroyed) break;
      socket.write(chunk.bytes);
    }
    await Promise.race([closed, pause(deadlineMs * 4)]);
    socket.destroy();
    return answer;
  }

  const json = '{"a":"' + 'x'.repeat(30) + '"}';
  const jsonHead = `POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${String(json.length)}\r\nConnection: close\r\n\r\n`;

  test('a JSON body that arrives in time is answered', async () => {
    const answer = await send(jsonHead, [{ after: 50, bytes: json }]);
    assert.match(answer, /^HTTP\/1.1 200/);
  });

  test('a JSON body still arriving at the deadline gets 408, even while bytes keep coming', async () => {
    const slow = Array.from(json, (byte) => ({ after: deadlineMs / 8, bytes: byte }));
    const answer = await send(jsonHead, slow);
    assert.match(answer, /^HTTP\/1.1 408/);
    assert.match(answer, /request not received in time/);
  });

  const rawHead = (length: number) =>
    `PUT /raw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${String(length)}\r\nConnection: close\r\n\r\n`;

  test('an object body may take longer than the deadline while bytes keep coming', async () => {
    const chunks = Array.from({ length: 12 }, () => ({ after: deadlineMs / 6, bytes: 'abcde' }));
    const answer = await send(rawHead(60), chunks);
    assert.match(answer, /^HTTP\/1.1 200/);
    assert.match(answer, /\{"bytes":60\}/);
  });

  test('an object body that stalls for the deadline gets 408', async () => {
    const answer = await send(rawHead(60), [
      { after: 10, bytes: 'abcde' },
      { after: deadlineMs * 2.5, bytes: 'abcde' },
    ]);
    assert.match(answer, /^HTTP\/1.1 408/);
  });
});
