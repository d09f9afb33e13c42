// The logger the services and adapters write to. Fastify's logger (pino) has this shape; naming only what
// we call keeps services and adapters free of the framework (docs/architecture.md#the-server).

/** A log method: structured fields then a message, or a message alone. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

export interface Log {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace: LogMethod;
}
