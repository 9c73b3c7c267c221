package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Configured is an optional interface that a [Tokenizer] may implement to
// give the model's tokenizer metadata: the fields of its
// tokenizer_config.json. A parser configured from that metadata (the parsers
// package's "hf", which reads "response_template") needs it. If a Tokenizer
// does not implement Configured, or its Config returns nil, the model's
// metadata is unknown, and such a parser fails at New with an error wrapping
// [ErrNoConfig]; every other parser ignores it.
//
// [Load] returns a Configured tokenizer when the model folder holds a
// tokenizer_config.json (or .json.gz); [LoadHF] and [LoadTiktoken] read one
// file each and have no metadata. [WithConfig] gives any Tokenizer metadata.
type Configured interface {
	// Config returns the fields of tokenizer_config.json as encoding/json
	// decodes a JSON object into a map[string]any, or nil when there is
	// none. The map is shared by every user of the tokenizer: callers must
	// not modify it.
	Config() map[string]any
}

// ErrNoConfig is wrapped by the errors of parsers that need the model's
// tokenizer metadata ([Configured]) and were given a tokenizer without it,
// or no tokenizer. Match it with [errors.Is].
var ErrNoConfig = errors.New("tokenizer: no tokenizer_config.json metadata")

// ConfigOf returns the metadata of tok: its Config when tok implements
// [Configured], else nil. A nil tok has none.
func ConfigOf(tok Tokenizer) map[string]any {
	if c, ok := tok.(Configured); ok {
		return c.Config()
	}
	return nil
}

// WithConfig returns tok with cfg as its metadata: a Tokenizer that encodes
// and decodes as tok does and implements [Configured], its Config returning
// cfg. It is for tokenizers that were not read by [Load] (a lone
// tokenizer.json, the cgo adapter, a [Vocab] in tests): decode the model's
// tokenizer_config.json into a map[string]any and attach it. cfg is not
// copied; do not modify it afterwards. A nil tok gives nil: there is no
// tokenizer to carry the metadata.
func WithConfig(tok Tokenizer, cfg map[string]any) Tokenizer {
	if tok == nil {
		return nil
	}
	return configured{tok, cfg}
}

// configured is a Tokenizer with metadata attached by WithConfig.
type configured struct {
	Tokenizer
	cfg map[string]any
}

func (c configured) Config() map[string]any { return c.cfg }

// parseConfig decodes a tokenizer_config.json. It must hold a JSON object.
func parseConfig(data []byte) (map[string]any, error) {
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	if cfg == nil {
		return nil, errors.New("parse JSON: not an object")
	}
	return cfg, nil
}

// readConfig reads and decodes the tokenizer_config.json at path, plain or
// gzip-compressed.
func readConfig(path string) (map[string]any, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, loadError(path, err)
	}
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, loadError(path, err)
	}
	return cfg, nil
}
