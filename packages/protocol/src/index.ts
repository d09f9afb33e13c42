// @ente/protocol: the wire contract of protocol.md as zod schemas. The server validates requests with
// them; the clients parse answers with them. No crypto, no I/O.
export * from './common.ts';
export * from './email-address.ts';
export * from './limits.ts';
export * from './errors.ts';
export * from './ping.ts';
export * from './key-attributes.ts';
export * from './users.ts';
export * from './srp.ts';
export * from './two-factor.ts';
export * from './passkeys.ts';
export * from './authenticator.ts';
export * from './user-entities.ts';
export * from './photos.ts';
export * from './photos-trash-links.ts';
export * from './cast.ts';
