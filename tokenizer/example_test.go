package tokenizer_test

import (
	"fmt"
	"log"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// Load a model folder and resolve a reasoning marker. (Compile-only: it
// needs a model folder, such as one that `make vocab` fetches.)
func ExampleLoad() {
	tok, err := tokenizer.Load("/models/Qwen3-8B") // tokenizer.json, or tiktoken.model with tokenizer_config.json; .gz too
	if err != nil {
		log.Fatal(err)
	}
	end, err := tokenizer.Resolve(tok, "</think>")
	if err != nil {
		log.Fatal(err)
	}
	ids := tok.Encode("The sum is 4.</think>4")
	fmt.Println(end.Single(), end.Index(ids))
}

// Kimi K2's folder holds a tiktoken rank file; Load reads its
// tokenizer_config.json to number the special tokens.
func ExampleLoad_tiktoken() {
	tok, err := tokenizer.Load("testdata/vocab/kimi-k2")
	if err != nil {
		log.Fatal(err)
	}
	id, ok := tok.TokenID("<|tool_calls_section_begin|>")
	fmt.Println(id, ok)
}
