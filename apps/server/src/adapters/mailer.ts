// Outgoing mail. With SMTP_URL the message goes out through nodemailer; without it the server writes
// "Skipping sending email to <address>: <subject>" to its log, as museum does, so a local developer
// finds the code there. No API ever returns a code.
import nodemailer from 'nodemailer';

import type { Config } from '../config.ts';
import type { Log } from '../lib/log.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, log: Log): Mailer {
  if (!config.SMTP_URL) {
    return {
      send({ to, subject }) {
        log.info(`Skipping sending email to ${to}: ${subject}`);
        return Promise.resolve();
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    async send(message) {
      await transport.sendMail({ from: config.SMTP_FROM, ...message });
    },
    close() {
      transport.close();
    },
  };
}
