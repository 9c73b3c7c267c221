// Package reasoningtest checks that a reasoning parser keeps the promises
// of package reasoning, the way testing/fstest checks a file system: given
// a Factory and a Config that names the family's markers, Check runs the
// family's parsers over sample outputs and outputs generated from the
// markers, under several request settings and every way of cutting them
// into deltas, and returns an error listing each guarantee broken, with
// the smallest input it found that breaks it.
//
// The guarantees are those the reasoning package documents: nothing lost
// or invented, streaming equal to Extract, nothing emitted after Finish,
// token IDs beating text, ID methods, prompts and a Gate that agree with
// the text split, and no panic on bad input. Check lists them in full.
//
// A family registered in a third-party package is checked from its own
// test:
//
//	func TestConformance(t *testing.T) {
//		reasoningtest.Test(t, newMyFamily, reasoningtest.Config{
//			Markers: []string{"<reason>", "</reason>", "<tool>"},
//		})
//	}
//
// CheckOutput is the same on one output, for a fuzz target; CheckIDs
// checks the ID methods on given token IDs. Corpus, Chunkings,
// TokenChunkings, ToyVocab and Collect are the pieces Check is made of,
// for tests of one's own.
package reasoningtest
