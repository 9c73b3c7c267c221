package main

import (
	"cmp"
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The markers the doctor looks for, across the families: what every
// registered name declares (reasoning.Info), in name order, each once. The
// doctor learns which of these a parser recognises, and how, by running it
// on small probes, so the family's own rules decide and these lists only
// name the candidates.
var (
	openMarkers  = declared(func(i reasoning.Info) []string { return i.Opens })
	closeMarkers = declared(func(i reasoning.Info) []string { return i.Closes })
	// toolMarkers open a tool call. Some families end reasoning at theirs
	// (and keep it in content for the tool parser); the inert ones, last,
	// end reasoning in none (DeepSeek R1's).
	toolMarkers = slices.Concat(declared(func(i reasoning.Info) []string { return i.Tools }),
		declared(func(i reasoning.Info) []string { return i.InertTools }))
	// aliases are the registered aliases, for the suggestions.
	aliases = declared(func(i reasoning.Info) []string { return i.Aliases })
	// switchKeys are the boolean thinking switches: enable_thinking and
	// thinking, then every other boolean key a family declares
	// (thinking_mode and reasoning_effort are not booleans).
	switchKeys = slices.DeleteFunc(union([]string{"enable_thinking", "thinking"}, declared(func(i reasoning.Info) []string { return i.SwitchKeys })),
		func(k string) bool { return k == "thinking_mode" || k == "reasoning_effort" })
)

// union returns a with the strings of b it lacks appended, in b's order.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}

// switches returns every boolean thinking switch set to on.
func switches(on bool) map[string]any {
	kw := make(map[string]any, len(switchKeys))
	for _, k := range switchKeys {
		kw[k] = on
	}
	return kw
}

// declared returns what field gives of every name registered in
// reasoning.Default, in name order, each once.
func declared(field func(reasoning.Info) []string) []string {
	var out []string
	for _, n := range reasoning.Names() {
		info, _ := reasoning.Default.Info(n)
		for _, s := range field(info) {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// family is what the doctor learnt of one parser by running it.
type family struct {
	name   string              // canonical name
	tok    tokenizer.Tokenizer // nil when the parser is built without the vocabulary
	kwargs map[string]any      // the request's chat_template_kwargs
	opens  []string            // markers that open reasoning
	closes []string            // markers that close it, dropped
	tools  []string            // tool-call openers that end reasoning, kept in content
}

// newFamily probes the parser name. usable is false when the parser cannot
// be built at all (with or without tok).
func newFamily(name string, tok tokenizer.Tokenizer, kwargs map[string]any) (*family, bool) {
	f := &family{name: name, tok: tok, kwargs: kwargs}
	if _, err := f.parser(kwargs); err != nil {
		if tok == nil {
			return nil, false
		}
		f.tok = nil
		if _, err := f.parser(kwargs); err != nil {
			return nil, false
		}
	}
	on := thinkingOn(kwargs)
	for _, c := range closeMarkers {
		// Hunyuan A13B's answer follows </think> in an <answer> block.
		for _, after := range []string{"\nomega", "\n<answer>\nomega\n</answer>"} {
			m, ok := f.split("alpha\n"+c+after, on, reasoning.WithForceReasoning(true))
			if ok && strings.Contains(m.Reasoning, "alpha") && !strings.Contains(m.Reasoning, "omega") &&
				strings.Contains(m.Content, "omega") && !strings.Contains(m.Content, c) {
				f.closes = append(f.closes, c)
				break
			}
		}
	}
	for _, t := range toolMarkers {
		m, ok := f.split("alpha\n"+t+"{}", on, reasoning.WithForceReasoning(true))
		if ok && strings.Contains(m.Reasoning, "alpha") && !strings.Contains(m.Reasoning, t) &&
			strings.HasPrefix(strings.TrimSpace(m.Content), t) {
			f.tools = append(f.tools, t)
		}
	}
	for _, o := range openMarkers {
		m, ok := f.split(o+"beta\n", on, reasoning.WithForceReasoning(false))
		if ok && strings.TrimSpace(m.Reasoning) == "beta" && strings.TrimSpace(m.Content) == "" {
			f.opens = append(f.opens, o)
		}
	}
	return f, true
}

// thinkingOn returns kwargs with every thinking switch the families read
// turned on, for probing a family's markers.
func thinkingOn(kwargs map[string]any) map[string]any {
	kw := merge(merge(kwargs, switches(true)), map[string]any{"thinking_mode": "enabled"})
	switch e, _ := kw["reasoning_effort"].(string); strings.ToLower(e) {
	case "", "none", "no_think":
		kw["reasoning_effort"] = "high"
	}
	return kw
}

// parser builds the family's parser with kwargs and further options.
func (f *family) parser(kwargs map[string]any, opts ...reasoning.Option) (reasoning.Parser, error) {
	return reasoning.New(f.name, f.tok, append([]reasoning.Option{reasoning.WithChatTemplateKwargs(kwargs)}, opts...)...)
}

// split runs Extract on text with a parser built from kwargs and opts; ok
// is false when the parser cannot be built so.
func (f *family) split(text string, kwargs map[string]any, opts ...reasoning.Option) (reasoning.Message, bool) {
	p, err := f.parser(kwargs, opts...)
	if err != nil {
		return reasoning.Message{}, false
	}
	return p.Extract(text), true
}

// served splits text as the server's parser would: built from the
// request's kwargs, without the prompt (SGLang and Dynamo give the parser no
// prompt; vLLM checks only whether the prompt's last token ended reasoning).
func (f *family) served(text string) reasoning.Message {
	m, _ := f.split(text, f.kwargs)
	return m
}

// index returns the first of markers in s, and where; -1 when none is.
func index(s string, markers []string) (string, int) {
	best, at := "", -1
	for _, m := range markers {
		if i := strings.Index(s, m); i >= 0 && (at < 0 || i < at) {
			best, at = m, i
		}
	}
	return best, at
}

// endsWith reports which of markers the text ends with, whitespace aside.
func endsWith(text string, markers []string) (string, bool) {
	t := strings.TrimRight(text, " \t\r\n")
	for _, m := range markers {
		if mm := strings.TrimRight(m, " \t\r\n"); mm != "" && strings.HasSuffix(t, mm) {
			return m, true
		}
	}
	return "", false
}

// wellKnown orders the suggestions of others after markers and vendor:
// the families most deployments run first.
var wellKnown = []string{"deepseek_r1", "qwen3", "glm45", "deepseek_v3", "kimi_k2", "minimax_m2", "seed_oss", "mistral", "gemma4", "openai_gptoss"}

// others returns up to four registered names besides f's for which ok
// holds: those with the same markers as f first, then those of the same
// vendor (a shared name prefix), then the well-known, then the nearest name.
func (f *family) others(ok func(g *family) bool) []string {
	type near struct {
		name   string
		diff   int // how many of opens, closes and tools differ from f's
		vendor int // 0 when the names share a prefix of four bytes
		known  int // index in wellKnown, or its length
		d      int
	}
	var found []near
	for _, n := range reasoning.Names() {
		if n == f.name {
			continue
		}
		g, usable := newFamily(n, nil, f.kwargs)
		if !usable || !ok(g) {
			continue
		}
		diff := 0
		for _, pair := range [][2][]string{{f.opens, g.opens}, {f.closes, g.closes}, {f.tools, g.tools}} {
			if !slices.Equal(pair[0], pair[1]) {
				diff++
			}
		}
		vendor := 1
		if len(n) >= 4 && len(f.name) >= 4 && n[:4] == f.name[:4] {
			vendor = 0
		}
		known := slices.Index(wellKnown, n)
		if known < 0 {
			known = len(wellKnown)
		}
		found = append(found, near{n, diff, vendor, known, distance(f.name, n)})
	}
	slices.SortFunc(found, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.diff, b.diff), cmp.Compare(a.vendor, b.vendor), cmp.Compare(a.known, b.known),
			cmp.Compare(a.d, b.d), strings.Compare(a.name, b.name))
	})
	var names []string
	for _, n := range found[:min(4, len(found))] {
		names = append(names, n.name)
	}
	return names
}

// normalize folds a parser name as the registry does.
func normalize(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
}

// suggestion is a registered name close to an unknown one.
type suggestion struct {
	name      string // as registered
	canonical string // the canonical name it finds (itself for a canonical name)
	d         int    // edit distance, after folding case and '-'
	key       int    // what it is sorted by: d, or less when only '_' differ
}

// closest returns the registered names and aliases nearest to an unknown
// name: within a third of its length in edits (at least 2), or starting
// with it; at most five, nearest first.
func closest(name string) []suggestion {
	n := normalize(name)
	limit := max(2, len([]rune(n))/3)
	var found []suggestion
	for _, cand := range append(reasoning.Names(), aliases...) {
		canonical, ok := reasoning.Canonical(cand)
		if !ok {
			continue // an alias this build no longer registers
		}
		c := normalize(cand)
		d := distance(n, c)
		// Sort "gptoss" next to "gpt_oss": underscores cost nothing here.
		key := min(d, distance(strings.ReplaceAll(n, "_", ""), strings.ReplaceAll(c, "_", "")))
		if key <= limit || (len(n) >= 3 && strings.HasPrefix(c, n)) {
			found = append(found, suggestion{cand, canonical, d, key})
		}
	}
	slices.SortFunc(found, func(a, b suggestion) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.d, b.d), strings.Compare(a.name, b.name))
	})
	return found[:min(5, len(found))]
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
