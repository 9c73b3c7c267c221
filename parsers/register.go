package parsers

import (
	"slices"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
)

// The engines whose behaviour a name follows. A name from a vLLM pull
// request or a vendor's vLLM plugin says so: vLLM's main branch does not
// register it.
const (
	vllm       = "vLLM"
	vllmPR     = "vLLM (pull request)"
	vllmPlugin = "vLLM (vendor plugin)"
	sglang     = "SGLang"
	smg        = "SGLang gateway (SMG)"
	dynamo     = "Dynamo"
	lmdeploy   = "LMDeploy"
)

// Each family registers its names in its own file, right below its spec
// and factory, with one register call: its name, factory, catalog entry,
// engine, one-line summary (markers in backquotes, as Markdown code spans)
// and aliases. That call is where a name, its aliases, switch keys and
// markers are declared: reasoning.Default's Info, the docs (go generate
// writes the table of contents in doc.go and the README from it), the
// doctor, the fuzz targets and ResolveThinking read them from there.
// ("gemma-4" is an alias of its own: it normalises to gemma_4, not gemma4.
// "kimi-k3" and "deepseek-v4" need none: '-' and '_' are equal.) This file
// holds what those calls share.

//go:generate go run ../internal/gendocs -root ..

// about is what a registration says of a name besides its catalog entry.
type about struct {
	engine  string   // reasoning.Info.Engine
	summary string   // reasoning.Info.Summary
	aliases []string // further names
	// opens and closes, when set, are the Info's in place of the entry's
	// (Hunyuan's phase machine has none, Gemma 4's opener has a label);
	// keys are switch keys a family reads outside its spec (Gemma 4's end
	// check).
	opens, closes, keys []string
	also                []catalog.Entry // further variants whose markers Info lists too (k2_horizon's efforts)
	inert               []string        // reasoning.Info.InertTools
	modelMarkers        bool            // the markers come from the model's files: Info lists none
	// models are the model ID patterns ForModel maps to the name
	// (reasoning.Info.Models).
	models []string
}

// deepseekToolCalls opens DeepSeek R1's and V3's tool calls. No parser ends
// reasoning at it (vLLM's DeepSeek reasoning parsers do not know it): a call
// the model writes while reasoning stays in reasoning.
const deepseekToolCalls = "<｜tool▁calls▁begin｜>"

// registerTag registers a think-tag family under its spec's name, with the
// family's own factory: a new <think>-style family is one spec value and
// this one line.
func registerTag(f *tagFamily, a about) { register(f.name, f.newParser, f.entry(), a) }

// register adds a name to reasoning.Default with its Info, and what it is
// made of to the test catalog.
func register(name string, f reasoning.Factory, e catalog.Entry, a about) {
	info := reasoning.Info{Name: name, Aliases: a.aliases, Engine: a.engine, Summary: a.summary,
		InertTools: a.inert, Models: a.models, SwitchKeys: union(slices.Clone(e.SwitchKeys), a.keys)}
	if !a.modelMarkers {
		info.Markers, info.Opens, info.Closes, info.Tools = slices.Clone(e.Markers), either(a.opens, e.Opens), either(a.closes, e.Closes), slices.Clone(e.Tools)
	}
	for _, v := range a.also {
		info.Markers, info.Opens = union(info.Markers, v.Markers), union(info.Opens, v.Opens)
		info.Closes, info.Tools = union(info.Closes, v.Closes), union(info.Tools, v.Tools)
	}
	reasoning.RegisterInfo(info, f)
	catalog.Add(name, e)
}

// union returns a with the strings of b it lacks appended, in b's order.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}

// either returns a when it is set, else b.
func either(a, b []string) []string {
	if a != nil {
		return a
	}
	return b
}
