// The text rule (docs/protocol.md#conventions) holds for every string a request may carry: each string
// position of every request and query schema is found by walking the schema, and each must refuse
// NUL, other control characters and unpaired surrogates, even where the rest of the string would pass.
import { describe, expect, test } from '@jest/globals';

import * as protocol from './index.ts';
import { email, isPlainText, passkeyName, text } from './index.ts';

/** Strings that pass every shape check a free-text or e-mail field has, but not the text rule. */
const hostile = [
  'a\u0000@x.org',
  'x\ud800@example.org',
  'x\udc00@example.org',
  'a\u0007b@c.de',
  'a\u007fb@c.de',
  'a\u0085b@c.de',
  '\u0000',
  'name\ud83d',
];

interface SchemaNode {
  _zod: { def: Record<string, unknown> & { type: string } };
  safeParse(value: unknown): { success: boolean };
}

/** Every position of a schema where a value is checked as a whole (containers are walked through). */
function leaves(schema: SchemaNode, path: string): [string, SchemaNode][] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, SchemaNode>).flatMap(([key, child]) =>
        leaves(child, `${path}.${key}`),
      );
    case 'optional':
    case 'nullable':
      return leaves(def.innerType as SchemaNode, path);
    case 'array':
      return leaves(def.element as SchemaNode, `${path}[]`);
    case 'union':
      return (def.options as SchemaNode[]).flatMap((option) => leaves(option, path));
    default:
      return [[path, schema]];
  }
}

const requestSchemas = Object.entries(protocol).filter(([name]) =>
  /(Request|Query|Credential)Schema$/.test(name),
) as unknown as [string, SchemaNode][];

describe('the text rule', () => {
  test('every string position of every request schema refuses control characters and lone surrogates', () => {
    expect(requestSchemas.length).toBeGreaterThan(25);
    const accepted: string[] = [];
    for (const [name, schema] of requestSchemas) {
      for (const [path, leaf] of leaves(schema, name)) {
        for (const value of hostile) {
          if (leaf.safeParse(value).success) accepted.push(`${path} ${JSON.stringify(value)}`);
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  test('the free-text fields are among the positions walked, and only the rule refuses the hostile strings there', () => {
    const freeText = [
      'verifyEmailRequestSchema.source',
      'sendOttRequestSchema.client',
      'setKeyAttributesRequestSchema.keyAttributes.kekHash',
      'removeTwoFactorRequestSchema.secret',
      'registrationCredentialSchema.response.transports[]',
      'finishPasskeyLoginQuerySchema.clientPackage',
      'renamePasskeyQuerySchema.friendlyName',
      'publicKeyQuerySchema.email',
    ];
    const byPath = new Map(requestSchemas.flatMap(([name, schema]) => leaves(schema, name)));
    for (const path of freeText) {
      const leaf = byPath.get(path);
      expect(leaf).toBeDefined();
      // The same string without its hostile character passes: the shape checks alone would accept them.
      expect(leaf?.safeParse('a@c.de').success).toBe(true);
    }
  });

  test('astral characters, accents and scripts are text', () => {
    for (const value of ['🔑 Work key', 'Zoë', '東京', 'مفتاح', 'a\u200db']) {
      expect(isPlainText(value)).toBe(true);
      expect(text(64).safeParse(value).success).toBe(true);
      expect(passkeyName.safeParse(value).success).toBe(true);
    }
    expect(email.safeParse('zoë@exämple.org').success).toBe(true);
    expect(email.safeParse('📧@example.org').success).toBe(true);
  });

  test('lengths are capped', () => {
    expect(text(4).safeParse('abcd').success).toBe(true);
    expect(text(4).safeParse('abcde').success).toBe(false);
    expect(text(4, { min: 1 }).safeParse('').success).toBe(false);
  });
});
