// The jsdom environment every browser-side jest suite runs in.
// jest-fixed-jsdom puts Node's fetch, streams, TextEncoder and structuredClone back into jsdom; the two
// assignments below fix cross-realm typed arrays, which libsodium rejects with an `instanceof` check.
const FixedJSDOMEnvironment = require('jest-fixed-jsdom');

class Environment extends FixedJSDOMEnvironment {
  constructor(...args) {
    super(...args);
    this.global.Uint8Array = Uint8Array;
    this.global.ArrayBuffer = ArrayBuffer;
  }
}

module.exports = Environment;
