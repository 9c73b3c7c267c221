package tokenizer_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reasoning-go/reasoning/internal/testvocab"
)

// shortSkip is why -short (make test's -race run) skips a test: it sweeps
// many inputs on one goroutine, where the race detector can find nothing,
// and the plain go test run has it.
const shortSkip = "a sweep on one goroutine: the plain go test run has it"

// families are the vocabulary folders every test of real vocabularies covers.
var families = []string{
	"qwen3", "deepseek-v3", "gpt-oss", "llama3", "gemma3",
	"mistral-nemo", "olmo", "granite", "kimi-k2", "hunyuan-a13b",
}

// expectedFile is testdata/expected/<family>.json: texts with the IDs and
// decoding of an independent implementation (see testdata/README.md).
type expectedFile struct {
	Family string `json:"family"`
	Source string `json:"source"`
	Cases  []struct {
		Text    string `json:"text"`
		IDs     []int  `json:"ids"`
		Decoded string `json:"decoded"`
	} `json:"cases"`
}

func readExpected(t testing.TB, family string) expectedFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "expected", family+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f expectedFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", family, err)
	}
	if len(f.Cases) < 30 {
		t.Fatalf("%s: only %d cases", family, len(f.Cases))
	}
	return f
}

// TestEncodeMatchesReference compares Encode and Decode with the IDs and
// text that the Rust implementations (Hugging Face tokenizers, tiktoken)
// give for the same vocabulary.
func TestEncodeMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, family := range families {
		t.Run(family, func(t *testing.T) {
			tok := testvocab.Load(t, family)
			want := readExpected(t, family)
			for _, c := range want.Cases {
				got := tok.Encode(c.Text)
				if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Encode(%q) mismatch (-want +got):\n%s", c.Text, diff)
					continue
				}
				if back := tok.Decode(c.IDs); back != c.Decoded {
					t.Errorf("Decode(Encode(%q)) = %q, want %q", c.Text, back, c.Decoded)
				}
			}
			t.Logf("%s: %d texts compared with %s", family, len(want.Cases), want.Source)
		})
	}
}
