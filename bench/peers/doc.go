// Command peers measures this library beside its Go peers on the same
// workloads and prints the comparison as a Markdown table, the one the
// README's "Compared with peers" part shows. Run it from the repository root
// with `make peers`.
//
// It is a module of its own so that the library does not depend on Ollama:
// its go.mod replaces github.com/reasoning-go/reasoning with the working tree
// (../..), so it measures the code beside it.
//
// Two workloads, each one model output of about 20,000 tokens built from the
// repository's samples: a Qwen3 output (one <think> block, then a prose
// answer, from testdata/samples/qwen3_thinking.txt) and a gpt-oss Harmony
// output (an analysis message, then a final one, from
// testdata/samples/openai_gptoss.txt). Each row streams its workload in
// ~4-byte deltas and in deltas of one real token (the Qwen3 and gpt-oss
// vocabularies in the folder REASONING_VOCAB_DIR names, else
// testdata/vocab), and splits it whole where the row has a call that does.
// Every figure is CPU time of the whole process (the garbage collector's
// work included), the median of -count rounds; the rounds visit the rows in
// turn so that noise from the rest of the machine spreads over all of them.
// Before it measures, it checks what every peer emits against this library's
// split of the same output and prints where they differ.
//
// Usage:
//
//	peers [-count n] [-time d]
package main
