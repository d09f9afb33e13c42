// For tests only: a Vault (vault/vault.ts) held in memory, no server and no crypto. Writes apply at
// once with a new updatedAt, as the real vault's do after its pull; every method is a jest mock, so
// tests can look at what the page asked for.
import type { jest as jestTypes } from '@jest/globals';

import { emptyDisplay } from '../../../services/code-uri.ts';
import type { Code, CodeData, CodeDisplay, VaultItem } from '../../../services/types.ts';
import type { AddManyOptions, Vault, VaultSnapshot } from '../../../vault/vault.ts';

/** The RFC 6238 seed "12345678901234567890" in Base32. */
export const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

let nextID = 1;

/** A TOTP code with the RFC seed; `display` merges into the defaults. */
export function fakeCode(fields: Partial<Omit<CodeData, 'display'>> & { display?: Partial<CodeDisplay> } = {}): Code {
  const { display, ...rest } = fields;
  const id = `code-${nextID++}`;
  return {
    type: 'totp',
    issuer: 'Issuer',
    account: 'someone@example.org',
    secret: rfcSecret,
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    unknownParams: [],
    ...rest,
    display: { ...emptyDisplay(), ...display },
    id,
    updatedAt: 1_000_000,
    uri: `otpauth://totp/${id}`,
  };
}

export interface FakeVault extends Vault {
  update: jestTypes.Mock<Vault['update']>;
  add: jestTypes.Mock<Vault['add']>;
  addMany: jestTypes.Mock<Vault['addMany']>;
  deleteForever: jestTypes.Mock<Vault['deleteForever']>;
  sync: jestTypes.Mock<Vault['sync']>;
  resolveConflict: jestTypes.Mock<Vault['resolveConflict']>;
  close: jestTypes.Mock<Vault['close']>;
  /** Replaces parts of the snapshot (tells the subscribers). */
  set(fields: Partial<VaultSnapshot>): void;
}

export function fakeVault(items: VaultItem[], fields: Partial<VaultSnapshot> = {}): FakeVault {
  let state: VaultSnapshot = { status: 'ready', items, syncing: false, conflicts: [], timeOffsetMs: 0, ...fields };
  const listeners = new Set<() => void>();
  let clock = 2_000_000;
  const set = (next: Partial<VaultSnapshot>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };
  const replace = (code: Code) =>
    set({
      items: state.items.map((item) =>
        item.kind === 'code' && item.code.id === code.id ? { kind: 'code', code } : item,
      ),
    });
  const addOne = (data: CodeData): Code => {
    const code: Code = { ...data, id: `added-${nextID++}`, updatedAt: clock++, uri: 'otpauth://totp/added' };
    set({ items: [...state.items, { kind: 'code', code }] });
    return code;
  };
  return {
    snapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set,
    sync: jest.fn(() => Promise.resolve()),
    add: jest.fn((data: CodeData) => Promise.resolve(addOne(data))),
    addMany: jest.fn((datas: readonly CodeData[], options?: AddManyOptions) => {
      const codes = datas.map(addOne);
      options?.onProgress?.(codes.length, datas.length);
      return Promise.resolve(codes);
    }),
    update: jest.fn((code: Code, data: CodeData) => {
      const updated: Code = { ...data, id: code.id, updatedAt: clock++, uri: code.uri };
      replace(updated);
      return Promise.resolve(updated);
    }),
    deleteForever: jest.fn((id: string) => {
      set({ items: state.items.filter((item) => (item.kind === 'code' ? item.code.id : item.item.id) !== id) });
      return Promise.resolve();
    }),
    resolveConflict: jest.fn(() => Promise.resolve()),
    close: jest.fn(),
  };
}

/** The items of a list of codes. */
export function itemsOf(codes: Code[]): VaultItem[] {
  return codes.map((code) => ({ kind: 'code', code }));
}
