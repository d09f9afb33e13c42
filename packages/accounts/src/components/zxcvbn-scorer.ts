// zxcvbn-ts with the common and English dictionaries, built once (see password-strength.ts). Only the
// score is used; the English feedback texts are never shown.

/** Builds the scorer: password → zxcvbn score (0 to 4). */
export async function createScorer(): Promise<(password: string) => number> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return (password) => zxcvbn.check(password).score;
}
