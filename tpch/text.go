package tpch

import "math/rand/v2"

// textPoolBytes is the size of the text pool comments are cut from. dbgen
// keeps 300 MB; a smaller pool repeats substrings more often but holds the
// same word frequencies, which is what the queries' LIKE patterns see.
const textPoolBytes = 2 << 20

// textPool builds the pool of sentences of the specification's grammar
// (clause 4.2.2.14), deterministic by r.
func textPool(r *rand.Rand) []byte {
	pool := make([]byte, 0, textPoolBytes+256)
	for len(pool) < textPoolBytes {
		pool = appendSentence(pool, r)
		pool = append(pool, ' ')
	}
	return pool[:textPoolBytes]
}

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

// appendSentence appends one sentence. The five forms are weighted 3:3:3:1:1
// as in the specification.
func appendSentence(b []byte, r *rand.Rand) []byte {
	switch n := r.IntN(11); {
	case n < 3:
		b = appendVerbPhrase(appendNounPhrase(b, r), r)
	case n < 6:
		b = appendPrepPhrase(appendVerbPhrase(appendNounPhrase(b, r), r), r)
	case n < 9:
		b = appendNounPhrase(appendVerbPhrase(appendNounPhrase(b, r), r), r)
	case n < 10:
		b = appendNounPhrase(appendVerbPhrase(appendPrepPhrase(appendNounPhrase(b, r), r), r), r)
	default:
		b = appendPrepPhrase(appendVerbPhrase(appendPrepPhrase(appendNounPhrase(b, r), r), r), r)
	}
	// The phrases end in a space; the terminator replaces it.
	return append(b[:len(b)-1], terminators.pick(r)...)
}

func appendWord(b []byte, w string) []byte { return append(append(b, w...), ' ') }

// appendNounPhrase appends noun (weight 10), adjective noun (20),
// adjective, adjective noun (10) or adverb adjective noun (50).
func appendNounPhrase(b []byte, r *rand.Rand) []byte {
	switch n := r.IntN(90); {
	case n < 10:
	case n < 30:
		b = appendWord(b, adjectives.pick(r))
	case n < 40:
		b = append(append(b, adjectives.pick(r)...), ", "...)
		b = appendWord(b, adjectives.pick(r))
	default:
		b = appendWord(appendWord(b, adverbs.pick(r)), adjectives.pick(r))
	}
	return appendWord(b, nouns.pick(r))
}

// appendVerbPhrase appends verb (weight 30), auxiliary verb (1), verb
// adverb (40) or auxiliary verb adverb (1).
func appendVerbPhrase(b []byte, r *rand.Rand) []byte {
	n := r.IntN(72)
	if (n >= 30 && n < 31) || n == 71 {
		b = appendWord(b, auxiliaries.pick(r))
	}
	b = appendWord(b, verbs.pick(r))
	if n >= 31 {
		b = appendWord(b, adverbs.pick(r))
	}
	return b
}

func appendPrepPhrase(b []byte, r *rand.Rand) []byte {
	return appendNounPhrase(appendWord(appendWord(b, prepositions.pick(r)), "the"), r)
}
