package tpch

import "math/rand/v2"

// textPoolBytes is the size of the text pool comments are cut from. dbgen
// keeps 300 MB; a smaller pool repeats substrings more often but holds the
// same word frequencies, which is what the queries' LIKE patterns see.
const textPoolBytes = 4 << 20

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
	return append(b[:len(b)-1], pick(r, terminators)...)
}

func appendWord(b []byte, w string) []byte { return append(append(b, w...), ' ') }

func appendNounPhrase(b []byte, r *rand.Rand) []byte {
	switch r.IntN(4) {
	case 1:
		b = appendWord(b, pick(r, adjectives))
	case 2:
		b = append(append(b, pick(r, adjectives)...), ", "...)
		b = appendWord(b, pick(r, adjectives))
	case 3:
		b = appendWord(appendWord(b, pick(r, adverbs)), pick(r, adjectives))
	}
	return appendWord(b, pick(r, nouns))
}

func appendVerbPhrase(b []byte, r *rand.Rand) []byte {
	n := r.IntN(4)
	if n&1 == 1 {
		b = appendWord(b, pick(r, auxiliaries))
	}
	b = appendWord(b, pick(r, verbs))
	if n&2 == 2 {
		b = appendWord(b, pick(r, adverbs))
	}
	return b
}

func appendPrepPhrase(b []byte, r *rand.Rand) []byte {
	return appendNounPhrase(appendWord(appendWord(b, pick(r, prepositions)), "the"), r)
}
