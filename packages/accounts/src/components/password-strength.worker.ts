// The worker of the password strength estimate (see password-strength.ts): builds the scorer on the
// first request and answers each `{id, password}` with `{id, score}` (or `{id, error}`).
import { createScorer } from './zxcvbn-scorer.ts';

const scorer = createScorer();

self.onmessage = ({ data }: MessageEvent<{ id: number; password: string }>) => {
  scorer.then(
    (score) => {
      self.postMessage({ id: data.id, score: score(data.password) });
    },
    (e: unknown) => {
      self.postMessage({ id: data.id, error: e instanceof Error ? e.message : String(e) });
    },
  );
};
