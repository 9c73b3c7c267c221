// Package settings holds what the options of packages openai and
// openai/rewrite set, so that one Option type serves both.
package settings

import (
	"log"

	"github.com/reasoning-go/reasoning"
)

// Settings are what the options set.
type Settings struct {
	Registry *reasoning.Registry        // nil for reasoning.Default
	Parser   string                     // parser name for every request; "" to look it up by model
	Defaults reasoning.ThinkingDefaults // the deployment's thinking defaults
	Field    uint8                      // a rewrite.Field
	History  uint8                      // a rewrite.History
	ErrorLog *log.Logger                // package openai's Handler: where it logs; nil for the log package's

	// UpstreamTransport is package openai's Handler's http.RoundTripper to
	// upstream, nil for http.DefaultTransport: any, so that package
	// rewrite, which imports this package, does not link net/http.
	UpstreamTransport any
}

// Package rewrite sets these when it is initialised, for package openai,
// which takes rewrite.Option values but can neither build nor apply them:
// rewrite.Option keeps its function unexported, so that go doc shows an
// opaque type rather than this package's. Each holds a func of the type in
// its comment; package openai asserts it.
var (
	NewOption any // func(set func(*Settings)) rewrite.Option
	Apply     any // func(opts []rewrite.Option) Settings
)
