package reasoning

import "slices"

// Info describes one registered parser name: what it is made of, for
// callers that must know without building it (a gateway resolving the
// thinking switch, a diagnostic tool probing for markers, generated docs).
// Registry.Info returns it; RegisterInfo records it.
//
// A name registered with Register has an Info with only Name and Aliases.
type Info struct {
	Name    string   // the canonical name
	Aliases []string // further names for the same parser, as registered
	// Engine is the serving engine whose behaviour the name follows
	// ("vLLM", "SGLang", "Dynamo"), where engines differ.
	Engine string
	// Summary is one line: the family's markers, set in backquotes as
	// Markdown code spans, and what is particular about it.
	Summary string

	// Markers are every marker the family recognises in text; none when
	// they come from the model's files (hf's response_template).
	Markers []string
	Opens   []string // of Markers, those that open reasoning
	Closes  []string // of Markers, those that close it
	Tools   []string // of Markers, the tool-call openers that end reasoning and stay in content
	// InertTools are tool-call openers the model writes that the parser
	// treats as text, wherever they come (DeepSeek R1's, which leave
	// reasoning open); they are not in Markers.
	InertTools []string
	// SwitchKeys are the chat_template_kwargs keys the family's thinking
	// switch reads. ResolveThinking writes its decision into each boolean
	// one.
	SwitchKeys []string
	// Models are patterns of the model IDs this name serves, for
	// ForModel: Hugging Face IDs ("qwen3"), case-folded, with '-' for '_'
	// and ' ', and '*' for any run of characters ("qwen3*thinking").
	Models []string
}

// clone returns a copy of i that shares no slice with it.
func (i Info) clone() Info {
	i.Aliases = slices.Clone(i.Aliases)
	i.Markers, i.Opens, i.Closes, i.Tools = slices.Clone(i.Markers), slices.Clone(i.Opens), slices.Clone(i.Closes), slices.Clone(i.Tools)
	i.InertTools = slices.Clone(i.InertTools)
	i.SwitchKeys = slices.Clone(i.SwitchKeys)
	i.Models = slices.Clone(i.Models)
	return i
}

// Info returns the description of the parser that name (canonical or an
// alias, in any spelling Canonical accepts) finds.
func (r *Registry) Info(name string) (Info, bool) {
	e, ok := r.load().byKey[normalize(name)]
	if !ok {
		return Info{}, false
	}
	return e.info.clone(), true
}

// RegisterInfo adds a factory under info.Name and info.Aliases, with info as
// its description. It fails as Register does.
func (r *Registry) RegisterInfo(info Info, f Factory) error {
	return r.register(info.clone(), f)
}

// RegisterInfo adds a factory with its description to Default. It panics
// as Register does.
func RegisterInfo(info Info, f Factory) {
	if err := Default.RegisterInfo(info, f); err != nil {
		panic(err)
	}
}
