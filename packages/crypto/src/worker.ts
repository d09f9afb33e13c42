// The crypto worker (one per tab, created by client.ts): the direct implementation behind comlink, so
// that Argon2id, SRP and libsodium run off the main thread and outside the page bundle.
import { expose } from 'comlink';

import { createCryptoEndpoint } from './endpoint.ts';

expose(createCryptoEndpoint());
