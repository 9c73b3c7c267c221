package openai

import (
	"log"
	"net/http"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/settings"
	"github.com/reasoning-go/reasoning/openai/rewrite"
)

// An Option configures a Transport or a Handler. It is package rewrite's
// Option: the same values configure a rewrite.Rewriter.
type Option = rewrite.Option

// WithParser is rewrite.WithParser: the parser for every request, else
// each request's model picks one.
func WithParser(name string) Option { return rewrite.WithParser(name) }

// WithRegistry is rewrite.WithRegistry: the registry parsers are looked up
// in; the default is reasoning.Default.
func WithRegistry(r *reasoning.Registry) Option { return rewrite.WithRegistry(r) }

// WithThinkingDefaults is rewrite.WithThinkingDefaults: the deployment's
// thinking defaults.
func WithThinkingDefaults(d reasoning.ThinkingDefaults) Option {
	return rewrite.WithThinkingDefaults(d)
}

// WithField is rewrite.WithField: the chat completion field or fields
// reasoning is written to; the default is FieldBoth.
func WithField(f Field) Option { return rewrite.WithField(f) }

// WithHistory is rewrite.WithHistory: what earlier assistant turns keep of
// their reasoning; the default is HistoryDrop.
func WithHistory(h History) Option { return rewrite.WithHistory(h) }

// WithErrorLog sets where the Handler logs the errors of upstream requests
// it answers with 502, and the options' error; the default is the log
// package's standard logger. The Transport and a rewrite.Rewriter ignore
// it.
func WithErrorLog(l *log.Logger) Option {
	return newOption(func(s *settings.Settings) { s.ErrorLog = l })
}

// WithUpstreamTransport sets the http.RoundTripper through which the
// Handler calls upstream, for its timeouts, TLS configuration and
// connection pool; the default (nil) is http.DefaultTransport. The
// Transport, which wraps the one it is given, and a rewrite.Rewriter
// ignore it.
func WithUpstreamTransport(rt http.RoundTripper) Option {
	return newOption(func(s *settings.Settings) { s.UpstreamTransport = rt })
}

// newOption and applyOptions build and apply the options of this package
// alone, through the hooks package rewrite sets.
var (
	newOption    = settings.NewOption.(func(func(*settings.Settings)) rewrite.Option)
	applyOptions = settings.Apply.(func([]rewrite.Option) settings.Settings)
)

// Field is rewrite.Field: the chat completion field or fields that carry
// reasoning.
type Field = rewrite.Field

// The values of Field.
const (
	FieldBoth             = rewrite.FieldBoth             // reasoning and reasoning_content: every client finds it
	FieldReasoning        = rewrite.FieldReasoning        // reasoning only
	FieldReasoningContent = rewrite.FieldReasoningContent // reasoning_content only
)

// History is rewrite.History: what a request's earlier assistant turns
// keep of their reasoning.
type History = rewrite.History

// The values of History.
const (
	HistoryDrop   = rewrite.HistoryDrop   // removed, as most chat templates expect
	HistoryRender = rewrite.HistoryRender // rendered into the content in the family's markers
	HistoryKeep   = rewrite.HistoryKeep   // sent as the client gave them
)
