// For tests only: a software WebAuthn authenticator with an ECDSA P-256 key per credential. It makes the
// payloads a browser would send (attestation "none", assertions with a sign count), with knobs to make
// them wrong the ways an attacker would (another origin, another RP ID, another challenge).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

import { isoCBOR } from '@simplewebauthn/server/helpers';

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  signCount: number;
}

export interface Tamper {
  origin?: string;
  rpID?: string;
  challenge?: string;
  type?: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

export class SoftAuthenticator {
  readonly rpID: string;
  readonly origin: string;

  constructor(rpID = 'localhost', origin = 'http://localhost:3001') {
    this.rpID = rpID;
    this.origin = origin;
  }

  /** A new credential and the body of POST /passkeys/registration/finish for `options.publicKey`. */
  register(publicKey: { challenge: string }, tamper: Tamper = {}) {
    const { privateKey, publicKey: key } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = key.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const credential: SoftCredential = { id: randomBytes(32), privateKey, signCount: 0 };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.rpIdHash(tamper.rpID),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      Buffer.alloc(4), // sign count 0
      Buffer.alloc(16), // AAGUID
      idLength,
      credential.id,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    const body = {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        attestationObject: b64url(attestationObject),
        clientDataJSON: this.clientData('webauthn.create', publicKey.challenge, tamper),
        transports: ['usb'],
      },
    };
    return { credential, body };
  }

  /** The body of POST /users/two-factor/passkeys/finish: an assertion by `credential`, its count raised. */
  assert(
    credential: SoftCredential,
    publicKey: { challenge: string },
    tamper: Tamper & { signCount?: number; userHandle?: string | null } = {},
  ) {
    credential.signCount = tamper.signCount ?? credential.signCount + 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.signCount);
    const authenticatorData = Buffer.concat([this.rpIdHash(tamper.rpID), Buffer.from([0x05]), count]);
    const clientDataJSON = this.clientData('webauthn.get', publicKey.challenge, tamper);
    const signed = Buffer.concat([
      authenticatorData,
      createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest(),
    ]);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        authenticatorData: b64url(authenticatorData),
        clientDataJSON,
        signature: b64url(sign('sha256', signed, credential.privateKey)),
        userHandle: tamper.userHandle === undefined ? null : tamper.userHandle,
      },
    };
  }

  private rpIdHash(rpID = this.rpID): Buffer {
    return createHash('sha256').update(rpID).digest();
  }

  private clientData(type: string, challenge: string, tamper: Tamper): string {
    const json = JSON.stringify({
      type: tamper.type ?? type,
      challenge: tamper.challenge ?? challenge,
      origin: tamper.origin ?? this.origin,
      crossOrigin: false,
    });
    return b64url(Buffer.from(json));
  }
}
