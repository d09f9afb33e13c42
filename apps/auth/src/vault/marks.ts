// Performance marks of the stages of opening the vault (`ente:vault:<stage>`), which bench/vault.mjs
// reads to say where a reload's time goes. A mark is a timestamp in the page's own timeline, nothing more.

export function markVaultStage(stage: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function')
    performance.mark(`ente:vault:${stage}`);
}
