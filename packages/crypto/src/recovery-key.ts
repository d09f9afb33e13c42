// The recovery key as people see and type it (docs/protocol.md#recovery-key): 32 bytes shown as a
// 24-word BIP-39 mnemonic (English list; the checksum is the first 8 bits of the bytes' SHA-256), and
// read back from those words or from the legacy 64-character hex form.
import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';

import { fromB64, fromHex, toB64 } from './encoding.ts';
import { RecoveryKeyError } from './errors.ts';

export const RECOVERY_KEY_BYTES = 32;
export const RECOVERY_KEY_WORDS = 24;

const knownWords = new Set(wordlist);

/** The 24 words of a 32-byte recovery key (b64), separated by single spaces. */
export function recoveryKeyToWords(recoveryKeyB64: string): string {
  const bytes = fromB64(recoveryKeyB64);
  if (bytes.length !== RECOVERY_KEY_BYTES) throw new RangeError('a recovery key is 32 bytes');
  return entropyToMnemonic(bytes, wordlist);
}

/**
 * The recovery key (b64) from what the user typed: trimmed, whitespace runs collapsed, lower-cased;
 * with spaces it must be 24 words of the list with a valid checksum, without it 64 hex characters.
 * Throws `RecoveryKeyError` saying why not.
 */
export function recoveryKeyFromInput(text: string): string {
  const normalized = text.trim().replace(/\s+/g, ' ').toLowerCase();
  if (normalized === '') throw new RecoveryKeyError('empty');
  if (!normalized.includes(' ')) {
    if (!/^[0-9a-f]{64}$/.test(normalized)) {
      throw new RecoveryKeyError('invalidHex', { message: 'a recovery key without spaces must be 64 hex characters' });
    }
    return toB64(fromHex(normalized));
  }
  const words = normalized.split(' ');
  if (words.length !== RECOVERY_KEY_WORDS) {
    throw new RecoveryKeyError('wordCount', {
      wordCount: words.length,
      message: `a recovery key has 24 words, not ${String(words.length)}`,
    });
  }
  const unknown = words.find((word) => !knownWords.has(word));
  if (unknown !== undefined) {
    throw new RecoveryKeyError('unknownWord', { word: unknown, message: `"${unknown}" is not a recovery key word` });
  }
  let bytes: Uint8Array;
  try {
    bytes = mnemonicToEntropy(words.join(' '), wordlist);
  } catch {
    throw new RecoveryKeyError('checksum', { message: 'the recovery key words do not match their checksum' });
  }
  return toB64(bytes);
}
