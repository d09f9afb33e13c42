// The one handle on libsodium: every primitive awaits `sodiumReady()` so that callers never see the
// wasm initialisation.
import sodium from 'libsodium-wrappers-sumo';

export type Sodium = typeof sodium;

/** Resolves to the initialised libsodium module. Cheap after the first call. */
export async function sodiumReady(): Promise<Sodium> {
  await sodium.ready;
  return sodium;
}
