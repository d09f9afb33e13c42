// Mail: a real SMTP server receives the code that POST /users/ott sends through
// nodemailer, and that code verifies; without SMTP the code goes to the log line museum writes.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';

import { SMTPServer } from 'smtp-server';

import { ApiClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { uniqueEmail } from '../testing/flows.ts';
import { spawnServer } from '../testing/process.ts';
import { startTestServer } from '../testing/server.ts';
import { createMailer } from './mailer.ts';

/** A real SMTP server on a free port that records every message; while `refusing`, it answers 550. */
async function startSmtp() {
  const messages: { to: string[]; raw: string; accepted: boolean }[] = [];
  const control = { refusing: false };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const accepted = !control.refusing;
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, accepted });
        callback(accepted ? null : Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    control,
    accepted: () => messages.filter((message) => message.accepted),
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}

/** Waits until `ready` holds (the mail of POST /users/ott goes out after the answer); fails after 10 s. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await ready());) {
    if (Date.now() > deadline) assert.fail(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The code in a raw mail's "Verification code: NNNNNN" subject. */
const codeIn = (raw: string) => /^Subject: Verification code: (\d{6})\r?$/m.exec(raw)?.[1];

test('the code goes out over SMTP and verifies', async () => {
  const smtp = await startSmtp();
  const server = await startTestServer({
    realMailer: true,
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'Ente <verify@example.org>' },
  });
  try {
    const api = new ApiClient(server.url);
    const email = uniqueEmail();
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    await until(() => smtp.accepted().length > 0, 'the mail');
    const received = smtp.accepted();
    assert.equal(received.length, 1);
    assert.deepEqual(received[0]!.to, [email]);
    const code = codeIn(received[0]!.raw);
    assert.ok(code, received[0]!.raw.slice(0, 500));
    assert.match(received[0]!.raw, /^From: Ente <verify@example\.org>\r?$/m);
    const verified = await api.post('/users/verify-email', { email, ott: code });
    assert.equal(verified.status, 200);
    assert.ok(verified.body.token);
  } finally {
    await server.close();
    await smtp.close();
  }
});

test('a mail the SMTP server refuses: 200 as any send, its code void and the send not counted; a retry works', async () => {
  const smtp = await startSmtp();
  smtp.control.refusing = true;
  const server = await startTestServer({ realMailer: true, env: { SMTP_URL: smtp.url } });
  try {
    const api = new ApiClient(server.url);
    const email = uniqueEmail();
    const sendCount = async () => JSON.stringify(await server.sql('SELECT count(*)::int AS n FROM ott_sends'));
    const sendsBefore = await sendCount();
    // The answer cannot wait for the mail: its time, or a 502, would tell whether anything was mailed.
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    await until(async () => smtp.messages.length === 1 && (await sendCount()) === sendsBefore, 'the refusal');
    const refused = codeIn(smtp.messages[0]?.raw ?? '');
    assert.ok(refused);
    assert.equal((await api.post('/users/verify-email', { email, ott: refused })).status, 401);

    smtp.control.refusing = false;
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    await until(() => smtp.accepted().length > 0, 'the second mail');
    const code = codeIn(smtp.accepted()[0]?.raw ?? '');
    assert.ok(code);
    assert.equal((await api.post('/users/verify-email', { email, ott: code })).status, 200);
  } finally {
    await server.close();
    await smtp.close();
  }
});

test('with SMTP configured no code reaches the log, even at trace level, whether the mail goes out or fails', async () => {
  const smtp = await startSmtp();
  smtp.control.refusing = true;
  const server = await spawnServer({ SMTP_URL: smtp.url, LOG_LEVEL: 'trace', DATA_DIR: 'memory://' });
  try {
    const api = new ApiClient(server.url);
    const email = uniqueEmail();
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    await until(() => /could not send an e-mail code/.test(server.output()), 'the failure in the log');
    smtp.control.refusing = false;
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    await until(() => smtp.accepted().length > 0, 'the second mail');
    const codes = smtp.messages.map((message) => codeIn(message.raw));
    assert.equal(codes.length, 2);
    const log = server.output();
    for (const code of codes) {
      assert.ok(code);
      assert.ok(!log.includes(code), `the log holds the code ${code}`);
    }
  } finally {
    await server.stop();
    await smtp.close();
  }
});

test('without SMTP the code is written to the log, as museum does', async () => {
  const lines: string[] = [];
  const log = { info: (line: string) => lines.push(line) } as unknown as Parameters<typeof createMailer>[1];
  const mailer = createMailer(testConfig(), log);
  await mailer.send({ to: 'a@example.org', subject: 'Verification code: 012345', text: 'Your code is 012345' });
  assert.deepEqual(lines, ['Skipping sending email to a@example.org: Verification code: 012345']);
});
