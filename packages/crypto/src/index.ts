// @ente/crypto: every cryptographic primitive of docs/protocol.md (#crypto-primitives to #srp) behind names that say their
// encoding. The only module in the repository that imports libsodium or the SRP library.
export * from './errors.ts';
export * from './encoding.ts';
export * from './box.ts';
export * from './blob.ts';
export * from './stream.ts';
export * from './hash.ts';
export * from './file-encryption.ts';
export * from './sealed-box.ts';
export * from './kdf.ts';
export * from './export-file.ts';
export * from './scrypt.ts';
export * from './keys.ts';
export * from './key-attributes.ts';
export * from './srp.ts';
export * from './recovery-key.ts';
