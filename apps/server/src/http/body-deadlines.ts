// How long a request's body may take to arrive. Node's own check (requestTimeout) is one deadline for every
// request of the server, and a photo's 20 MiB part sent over a slow uplink needs more than the minute a
// JSON body ever needs. So Node's check is off (app.ts sets requestTimeout 0; headersTimeout still bounds
// the headers) and each request gets its own here: an API body must arrive whole within a minute, and an
// object store body (routes flagged rawBody) must not go a minute without a byte, however long it takes.
// Either way a late request gets the 408 Node's check gave (http/errors.ts answerClientError).
import type { FastifyInstance } from 'fastify';

export const BODY_DEADLINE_MS = 60_000;

export function registerBodyDeadlines(app: FastifyInstance, deadlineMs = BODY_DEADLINE_MS): void {
  app.addHook('onRequest', (request, reply, done) => {
    const { raw } = request;
    // A request without Content-Length or Transfer-Encoding has no body (a GET, an object's download): no timer.
    const length = raw.headers['content-length'];
    const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (raw.complete || !hasBody) {
      done();
      return;
    }
    const { socket } = raw;
    const expire = () => {
      stop();
      if (raw.complete || socket.destroyed) return;
      const timeout = Object.assign(new Error('request body not received in time'), {
        code: 'ERR_HTTP_REQUEST_TIMEOUT',
      });
      app.server.emit('clientError', timeout, socket);
    };
    let stop: () => void;
    if (request.routeOptions.config.rawBody === true) {
      // The socket's byte count, looked at a few times per deadline: no new byte for a deadline ends it.
      let bytesRead = socket.bytesRead;
      let idleSince = Date.now();
      const timer = setInterval(
        () => {
          if (socket.bytesRead !== bytesRead) {
            bytesRead = socket.bytesRead;
            idleSince = Date.now();
          } else if (Date.now() - idleSince >= deadlineMs) {
            expire();
          }
        },
        Math.max(10, Math.floor(deadlineMs / 4)),
      );
      stop = () => clearInterval(timer);
    } else {
      const timer = setTimeout(expire, deadlineMs);
      stop = () => clearTimeout(timer);
    }
    reply.raw.once('close', stop);
    done();
  });
}
