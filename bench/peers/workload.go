package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// A workload is one model output and the deltas a server streams it in.
type workload struct {
	name   string // "qwen3" or "harmony"
	vocab  string // the vocabulary of its tokens, a folder of the vocabulary dir
	output string
	bytes4 []reasoning.Delta // ~4-byte deltas, text only
	tokens []reasoning.Delta // one real token per delta, its text held back to whole runes, with its ID; nil without the vocabulary
	// tok is the vocabulary the tokens come from. A caller that has token
	// IDs has it loaded, so it stays in the heap while rows run: the
	// garbage collector, whose work counts, marks it on each cycle, as a
	// gateway's collector marks the gateway's own state.
	tok tokenizer.Tokenizer
}

// A shape says how a workload is built from a sample. The sample is
// cut[0] + reasoning + cut[1] + answer + cut[2], give or take spaces around
// the reasoning and the answer; the workload is open + reasoning repeated to
// its budget + join + answer repeated to its budget, the copies joined by
// blank lines. The budgets, in bytes, make about 15,000 tokens of reasoning
// and 5,000 of answer in the workload's vocabulary.
type shape struct {
	sample                      string // a file of testdata/samples
	cut                         [3]string
	open, join                  string
	reasoningBytes, answerBytes int
}

var shapes = map[string]shape{
	// Qwen3 with thinking on, as the model writes it: one <think> block,
	// then a prose answer. (qwen3.txt answers with a tool call, which
	// Ollama's Qwen3 parser decodes as JSON and this library passes on as
	// content: not the same work.)
	"qwen3": {
		sample: "qwen3_thinking.txt",
		cut:    [3]string{"", "</think>", ""},
		open:   "<think>\n", join: "\n</think>\n\n",
		reasoningBytes: 31_000, answerBytes: 10_500, // its sums take a token a digit
	},
	// gpt-oss: the analysis channel, then the final one. The stream ends
	// where <|return|> would come: servers stop on it, so no parser sees it.
	"harmony": {
		sample: "openai_gptoss.txt",
		cut:    [3]string{"<|channel|>analysis<|message|>", "<|end|><|start|>assistant<|channel|>final<|message|>", "<|return|>"},
		open:   "<|channel|>analysis<|message|>", join: "<|end|><|start|>assistant<|channel|>final<|message|>",
		reasoningBytes: 69_000, answerBytes: 23_000,
	},
}

// reference names, for each workload, this library's parser of it, whose
// Extract every row's split is checked against.
var reference = map[string]string{"qwen3": "qwen3", "harmony": "openai_gptoss"}

// vocabs names the vocabulary each workload is cut into tokens with.
var vocabs = map[string]string{"qwen3": "qwen3", "harmony": "gpt-oss"}

// buildWorkload builds the named workload from the samples in root, and
// cuts it into tokens with the vocabulary in vocabDir when it is there.
func buildWorkload(root, vocabDir, name string) (*workload, error) {
	sh := shapes[name]
	raw, err := os.ReadFile(filepath.Join(root, "testdata", "samples", sh.sample))
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", name, err)
	}
	text, ok := strings.CutPrefix(string(raw), sh.cut[0])
	if !ok {
		return nil, fmt.Errorf("workload %s: %s does not start with %q", name, sh.sample, sh.cut[0])
	}
	r, a, ok := strings.Cut(text, sh.cut[1])
	if !ok {
		return nil, fmt.Errorf("workload %s: %s has no %q", name, sh.sample, sh.cut[1])
	}
	r, a = strings.TrimSpace(r), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(a), sh.cut[2]))
	w := &workload{name: name, vocab: vocabs[name]}
	w.output = sh.open + repeat(r, sh.reasoningBytes) + sh.join + repeat(a, sh.answerBytes)
	for i := 0; i < len(w.output); i += 4 {
		w.bytes4 = append(w.bytes4, reasoning.Delta{Text: w.output[i:min(len(w.output), i+4)]})
	}
	dir := filepath.Join(vocabDir, w.vocab)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return w, nil
	}
	w.tok, err = tokenizer.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", name, err)
	}
	chs, err := reasoningtest.TokenChunkings(w.tok, w.output)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", name, err)
	}
	w.tokens = chs[1].Deltas // as a detokenizer sends them: text on whole runes
	return w, nil
}

// repeat joins copies of s with blank lines until the result holds at least
// n bytes.
func repeat(s string, n int) string {
	k := max(1, (n+len(s)+3)/(len(s)+2)) // k copies and k-1 separators hold n bytes
	return strings.Repeat(s+"\n\n", k-1) + s
}

// textOnly returns deltas without their token IDs, as a caller without a
// tokenizer has them.
func textOnly(ds []reasoning.Delta) []reasoning.Delta {
	out := make([]reasoning.Delta, len(ds))
	for i, d := range ds {
		out[i] = reasoning.Delta{Text: d.Text}
	}
	return out
}

// findRoot returns the repository root: the nearest folder at or above the
// working directory whose go.mod is the library's.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(mod), "module github.com/reasoning-go/reasoning\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("peers: no go.mod of github.com/reasoning-go/reasoning at or above the working directory")
		}
		dir = parent
	}
}

// vocabDir returns the folder of vocabularies: REASONING_VOCAB_DIR (a
// relative path is taken from root, as the library's tests take it), else
// testdata/vocab in root.
func vocabDir(root string) string {
	dir := os.Getenv("REASONING_VOCAB_DIR")
	if dir == "" {
		dir = filepath.Join("testdata", "vocab")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir
}
