//go:build hftokenizers

package hftokenizers_test

import (
	"path/filepath"
	"testing"

	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
	"github.com/reasoning-go/reasoning/tokenizer/hftokenizers"
)

// TestMatchesPureGo compares the Rust binding with the pure Go loader on a
// real vocabulary. It needs the native library to link.
func TestMatchesPureGo(t *testing.T) {
	dir := testvocab.Path(t, "qwen3")
	rust, err := hftokenizers.Load(filepath.Join(dir, "tokenizer.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer rust.Close()
	pure := testvocab.Load(t, "qwen3")
	for _, text := range []string{"Hello, world!", "<think>\n\n</think>\n\n", "x</think>y", "你好 👩‍👩‍👧"} {
		a, b := rust.Encode(text), pure.Encode(text)
		if len(a) != len(b) {
			t.Fatalf("Encode(%q): rust %v, go %v", text, a, b)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("Encode(%q): rust %v, go %v", text, a, b)
			}
		}
	}
	d, err := tokenizer.Resolve(rust, "<think>")
	if err != nil || !d.Single() || d.IDs[0] != 151667 {
		t.Errorf("Resolve(<think>) = %v, %v", d, err)
	}
}
