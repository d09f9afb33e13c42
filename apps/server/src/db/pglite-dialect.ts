// A Kysely dialect for the embedded PGlite that keeps each distinct statement prepared and runs a query
// as one exchange with the database.
//
// PGlite's own query() (what Kysely's PGliteDialect calls) parses and plans the text again on every call
// and crosses into PostgreSQL six times (parse, describe the statement, bind, describe the portal,
// execute, sync). On the embedded database that work is the server's own CPU: a password login makes
// ten statements. Here a statement is parsed once under a name (its parameter types asked for then),
// and every later call sends bind, describe, execute and sync in one message: about a third of the CPU
// per statement (docs/decisions.md, "The embedded database: each statement prepared once"). Values and
// rows go through PGlite's own serializers and parsers, so what a query returns is what query() returns.
//
// Only Kysely uses the PGlite instance, and Kysely lets one query or one transaction at a time hold its
// single connection; each exchange also takes PGlite's own query lock.
import { parse as pgParse, protocol, type PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PGliteAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

const { serialize } = protocol;

/** Prepared statements kept at most; the least recently used is closed past it. */
export const MAX_PREPARED_STATEMENTS = 256;

/** Statement names are unique in the process, so that two dialects on one PGlite never share one. */
let statementsNamed = 0;

/** SQLSTATE 0A000 with this text: a statement's result columns changed under it (a migration). */
const CHANGED_RESULT_TYPE = 'cached plan must not change result type';

export class PreparedPGliteDialect implements Dialect {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }

  createDriver(): Driver {
    return new PreparedPGliteDriver(this.#pglite);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class PreparedPGliteDriver implements Driver {
  readonly #pglite: PGlite;
  readonly #connection: PreparedPGliteConnection;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#connection = new PreparedPGliteConnection(pglite);
  }

  async init(): Promise<void> {
    if (this.#pglite.closed) throw new Error('PGlite instance is already closed.');
    await this.#pglite.waitReady;
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.#connection);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    if (!this.#pglite.closed) await this.#pglite.close();
  }
}

interface Prepared {
  name: string;
  /** The type OID of each parameter, as PostgreSQL inferred it. */
  paramTypes: number[];
}

class PreparedPGliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite;
  /** By SQL text, least recently used first (a Map keeps insertion order). */
  readonly #statements = new Map<string, Prepared>();
  /** Names of evicted statements, closed with the next exchange. */
  #toClose: string[] = [];

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.#pglite._runExclusiveQuery(async () => {
      try {
        return await this.#run<R>(compiled.sql, compiled.parameters);
      } catch (error) {
        if (!isChangedResultType(error)) throw error;
        // A migration changed the columns a kept statement returns: prepare it again, once.
        this.#forget(compiled.sql);
        return this.#run<R>(compiled.sql, compiled.parameters);
      }
    });
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }

  async #run<R>(text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const statement = this.#statements.get(text) ?? (await this.#prepare(text));
    // Most recently used goes last.
    this.#statements.delete(text);
    this.#statements.set(text, statement);

    const values = parameters.map((value, index) => this.#serialize(value, statement.paramTypes[index]));
    const messages = [
      ...this.#toClose.map((name) => serialize.close({ type: 'S', name })),
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ];
    this.#toClose = [];
    const { messages: answer } = await this.#pglite.execProtocol(concat(messages));
    const [result] = pgParse.parseResults(answer, this.#pglite.parsers, { rowMode: 'object' });
    return {
      rows: (result?.rows ?? []) as R[],
      numAffectedRows: result?.affectedRows != null ? BigInt(result.affectedRows) : undefined,
    };
  }

  /** Parses `text` under a new name and learns its parameter types; nothing is kept if it fails. */
  async #prepare(text: string): Promise<Prepared> {
    const name = `kysely_${statementsNamed++}`;
    const { messages } = await this.#pglite.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    );
    const prepared = { name, paramTypes: pgParse.parseDescribeStatementResults(messages) };
    this.#statements.set(text, prepared);
    if (this.#statements.size > MAX_PREPARED_STATEMENTS) {
      const [oldest] = this.#statements.keys();
      if (oldest !== undefined) this.#forget(oldest);
    }
    return prepared;
  }

  #forget(text: string): void {
    const statement = this.#statements.get(text);
    if (!statement) return;
    this.#statements.delete(text);
    this.#toClose.push(statement.name);
  }

  /** A parameter as PGlite's query() sends it: its type's serializer, else its text (an object as JSON). */
  #serialize(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.#pglite.serializers[type];
    if (serializer) return serializer(value);
    switch (typeof value) {
      case 'string':
        return value;
      case 'number':
      case 'bigint':
      case 'boolean':
        return String(value);
      case 'object':
        return JSON.stringify(value);
      default:
        throw new TypeError(`A ${typeof value} cannot be a query parameter.`);
    }
  }
}

function isChangedResultType(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === '0A000' &&
    error.message.includes(CHANGED_RESULT_TYPE)
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
