// The authenticator's data model (docs/protocol.md#authenticator-data): a code as its URI describes it,
// its display metadata (`codeDisplay`), and the items of the vault (a code, or an entity that could
// not be read, kept visible with its error).

export type OTPType = 'totp' | 'hotp' | 'steam';
export type OTPAlgorithm = 'sha1' | 'sha256' | 'sha512';

/**
 * The `codeDisplay` JSON of a code URI. The keys we use are typed; `unknown` holds every other key
 * exactly as read (icons, positions, counters written by other apps), so that writing the code back
 * loses nothing.
 */
export interface CodeDisplay {
  pinned: boolean;
  trashed: boolean;
  /** µs since the epoch; 0 when never used. */
  lastUsedAt: number;
  tapCount: number;
  tags: string[];
  note: string;
  /** Manual sort position (ascending). */
  position: number;
  iconSrc: string;
  iconID: string;
  /** Keys of the JSON we do not know, as read. */
  unknown: Record<string, unknown>;
}

/** What a code URI holds: everything needed to generate and to write it back. */
export interface CodeData {
  type: OTPType;
  issuer: string;
  account: string;
  /** Base32, upper case, without spaces or padding. */
  secret: string;
  algorithm: OTPAlgorithm;
  digits: number;
  /** Seconds. */
  period: number;
  /** HOTP counter (0 for the other types). */
  counter: number;
  display: CodeDisplay;
  /** Query parameters of the URI we do not know (name, value), in order, written back as they were. */
  unknownParams: [string, string][];
}

/** A code of the vault: its data and the entity that holds it. */
export interface Code extends CodeData {
  /** The entity's id (UUID). */
  id: string;
  /** The entity's `updatedAt` (µs), sent back as `ifUpdatedAt` when the code is written. */
  updatedAt: number;
  /** The decrypted URI as stored. */
  uri: string;
}

/** An entity that decrypts but cannot be parsed, or does not decrypt: shown with its error. */
export interface BrokenItem {
  id: string;
  updatedAt: number;
  /** The decrypted text when there is one (for "copy raw data"). */
  raw?: string;
  /** Best-effort issuer read from the raw text, for display. */
  issuer?: string;
  /** Why it cannot be shown: a translation key of the `codes` namespace. */
  errorKey: string;
  /** What the message interpolates (the value that was refused), when it names one. */
  errorValues?: Record<string, string>;
}

export type VaultItem = { kind: 'code'; code: Code } | { kind: 'broken'; item: BrokenItem };
