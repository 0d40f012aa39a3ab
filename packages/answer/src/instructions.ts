/**
 * What to tell a model about citing, in the words `checkAnswer` reads: the passage labels, the two marker forms,
 * exact quotes without square brackets, and saying so when the passages do not answer. For a system prompt.
 */
export const CITATION_INSTRUCTIONS = [
  'Answer only from the passages, which are labelled p1, p2, and so on.',
  'After each sentence, cite the passages it rests on as [p3], or better with the exact words it rests on as',
  '[p3: "exact words from the passage"]; cite several as [p1, p4]. Copy quotes word for word, at least three words,',
  'and leave square brackets out of them. A quote that is not in the cited passage is marked unverified, and a',
  'sentence without a citation is marked uncited. If the passages do not answer the question, say that it was not',
  'found in the sources read instead of guessing.',
].join(' ')
