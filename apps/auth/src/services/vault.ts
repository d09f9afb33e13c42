// Moved to vault/ (vault/README.md); this re-export lasts until the last importer has moved.
export * from '../vault/vault.ts';
