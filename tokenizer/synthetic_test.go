package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSyntheticMatchesReference runs the small tokenizer.json files of
// testdata/synthetic, each built to exercise components and flags that the
// real vocabularies leave out (Metaspace schemes, Prepend, Lowercase, NFKC,
// regex Replace, Strip, every Split behavior, added-token lstrip, rstrip,
// single_word and normalized, case folding in (?i:...)), against the IDs
// and decodings of the Rust implementation. See testdata/README.md.
func TestSyntheticMatchesReference(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "synthetic", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no synthetic tokenizers: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var f struct {
				Tokenizer json.RawMessage `json:"tokenizer"`
				Cases     []struct {
					Text    string `json:"text"`
					IDs     []int  `json:"ids"`
					Decoded string `json:"decoded"`
				} `json:"cases"`
			}
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatal(err)
			}
			h, err := parseHF(f.Tokenizer)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range f.Cases {
				got := h.Encode(c.Text)
				if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Encode(%q) mismatch (-want +got):\n%s", c.Text, diff)
					continue
				}
				if back := h.Decode(c.IDs); back != c.Decoded {
					t.Errorf("Decode(Encode(%q)) = %q, want %q", c.Text, back, c.Decoded)
				}
			}
		})
	}
}
