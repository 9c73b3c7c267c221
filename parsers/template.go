package parsers

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The fields of a response_template this parser routes (spec vllm-thinktag
// §21): reasoning, content, and tool calls left in content for the tool
// parser.
const (
	fieldThinking = "thinking"
	fieldContent  = "content"
	fieldTools    = "tool_calls"
)

// newResponseTemplate builds the "hf" parser (alias "response_template";
// vLLM's ResponseTemplateReasoningParser), configured at New from the
// model's metadata: the "response_template" object of tokenizer_config.json,
// read through tokenizer.Configured (tokenizer.Load keeps it;
// tokenizer.WithConfig attaches it to any tokenizer). New fails, naming what
// is missing, without a tokenizer or with one that has no metadata (both
// wrap tokenizer.ErrNoConfig), without a response_template or a thinking
// field in it, and for what it cannot stream: other fields or defaults,
// non-text thinking or content (a transform or join on them), a pattern
// that is not a literal where a delimiter is dropped, a thinking field
// without open or close, unknown keys, delimiters that clash.
//
// Markers: the template's. The thinking field's open and close (a string or
// a list; an open_pattern or close_pattern only when it is a plain literal)
// open and close reasoning and are dropped. The content field's open and
// close are dropped in content. A tool_calls open starts a tool call that is
// content, verbatim, up to and including its close (to the end of the
// output without one), and no other marker counts inside it; an open_pattern
// there is matched by its literal prefix. Inside reasoning only the thinking
// close counts: a tool-call or content marker there is reasoning text. None
// need be a single token.
// Starts in: content; a thinking open starts reasoning. A prompt
// (WithPrompt) is read after its last start anchor (start_anchor or
// start_anchor_pattern; all of it when none is found) through the same
// markers, and the response starts where that leaves off: inside the
// thinking block, in content, or inside a tool call.
// Thinking switch: chat_template_kwargs["enable_thinking"], default true,
// read by the ID-level end check only (as upstream): off, IDs that show
// nothing yet count as ended. The split does not change.
// Truncation: an unclosed thinking block is reasoning; an unclosed tool call
// is content.
// Repeats: every thinking open in content starts another block, whether or
// not the field repeats. A thinking field with "repeats" makes the end check
// answer false for any IDs, as upstream (reasoning may always resume).
// Streaming: holds back fewer bytes than the longest marker, only while
// they may start one; Finish returns them to the section they belong to.
// No whitespace is stripped.
// Upstream: spec vllm-thinktag §21; vllm/parser/response_template.py and its
// region parser, tests/parser/test_response_template.py. Tool calls are not
// parsed: they stay in content for the tool parser, as in vLLM's reasoning
// adapter, which runs the template with tool parsing off. vLLM's region
// parser drops text outside every region (a template whose content field
// has an open); here it is content (guarantee 1: nothing lost).
// An explicit content region is not sealed: a thinking open inside it
// starts reasoning. A delimiter cut in two by the end of the prompt is not
// joined with the output. The end check reads the tokens' decoded text, as
// upstream does; a thinking block reopened after one closed reads as not
// ended, where upstream answers ended once any block closed.
func newResponseTemplate(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	meta := tokenizer.ConfigOf(tok)
	switch {
	case tok == nil:
		return nil, fmt.Errorf("needs a tokenizer that carries the model's tokenizer_config.json (tokenizer.Load, tokenizer.WithConfig): %w", tokenizer.ErrNoConfig)
	case meta == nil:
		return nil, fmt.Errorf("tokenizer %T carries no model metadata (load the model folder with tokenizer.Load, or use tokenizer.WithConfig): %w", tok, tokenizer.ErrNoConfig)
	}
	raw, ok := meta["response_template"]
	if !ok || raw == nil {
		return nil, fmt.Errorf(`the model's tokenizer_config.json has no "response_template"; use the parser named for its family (%w)`, reasoning.ErrUnsupportedConfig)
	}
	t, err := parseTemplate(raw)
	if err != nil {
		return nil, fmt.Errorf("response_template: %w (%w)", err, reasoning.ErrUnsupportedConfig)
	}
	on, set := cfg.Thinking("enable_thinking")
	return t.fam.build(tok, cfg, func(r *tagIDs) idRules {
		return &templateRules{tagIDs: r, tmpl: t, thinking: on || !set}
	})
}

func init() {
	// Its markers are the model's (the catalog's are Gemma 4's template,
	// for the tests); its thinking switch decides the end check.
	register("hf", newResponseTemplate, templateEntry(), about{engine: vllm,
		summary:      "markers and start from the model's `response_template` metadata, read from a `tokenizer.Configured` (content when no prompt says otherwise); `enable_thinking` decides the end check",
		modelMarkers: true, keys: []string{"enable_thinking"}, aliases: []string{"response_template"}})
}

// A respTemplate is a response_template made ready: a think-tag family and what
// the end check needs besides.
type respTemplate struct {
	fam     *tagFamily
	anchor  startAnchor
	repeats bool // the thinking field repeats: the end check never reports an end
}

// A startAnchor finds where the response starts in a prompt: after the last
// match of any literal, or of the pattern.
type startAnchor struct {
	literals []string
	re       *regexp.Regexp
	// overlaps says that two occurrences of literals may overlap (one
	// inside another, or one's end the start of the next), so that the
	// last one is not found by a scan from the left.
	overlaps bool
}

// after returns the offset just past the last anchor in s; ok is false when
// there is none.
func (a startAnchor) after(s string) (end int, ok bool) {
	end = -1
	for _, l := range a.literals {
		if i := strings.LastIndex(s, l); i >= 0 {
			end = max(end, i+len(l))
		}
	}
	if a.re != nil {
		if m := a.re.FindAllStringIndex(s, -1); len(m) > 0 {
			end = max(end, m[len(m)-1][1])
		}
	}
	return end, end >= 0
}

// mayOverlap reports whether occurrences of literals in a text may
// overlap: one is inside another, or a proper suffix of one is a prefix of
// one.
func mayOverlap(literals []string) bool {
	if marker.Check(literals) != nil {
		return true
	}
	for _, a := range literals {
		for _, b := range literals {
			for i := 1; i < len(a); i++ {
				if strings.HasPrefix(b, a[i:]) {
					return true
				}
			}
		}
	}
	return false
}

// cut returns the part of a prompt that belongs to the response.
func (a startAnchor) cut(prompt string) string {
	if end, ok := a.after(prompt); ok {
		return prompt[end:]
	}
	return prompt
}

// parseTemplate validates a decoded response_template and builds its
// family. Its errors name the key at fault.
func parseTemplate(raw any) (*respTemplate, error) {
	spec, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object (got %s)", jsonKind(raw))
	}
	if err := tmplKeys("", spec, "version", "defaults", "fields", "start_anchor", "start_anchor_pattern"); err != nil {
		return nil, err
	}
	if v, ok := spec["version"]; ok && v != float64(1) && v != 1 {
		return nil, fmt.Errorf("unsupported version %v (supported: 1)", v)
	}
	if d, ok := spec["defaults"]; ok {
		dm, ok := d.(map[string]any)
		if !ok {
			return nil, errors.New(`"defaults" is not an object`)
		}
		if err := tmplKeys(`"defaults"`, dm, "role"); err != nil {
			return nil, fmt.Errorf("unsupported semantic defaults: %w", err)
		}
	}
	fields, ok := spec["fields"].(map[string]any)
	if !ok || len(fields) == 0 {
		return nil, errors.New(`"fields" must be a non-empty object`)
	}
	if err := tmplKeys(`"fields"`, fields, fieldThinking, fieldContent, fieldTools); err != nil {
		return nil, fmt.Errorf("unsupported semantic fields: %w", err)
	}
	if _, ok := fields[fieldThinking]; !ok {
		return nil, fmt.Errorf(`no %q field: the reasoning parser needs one`, fieldThinking)
	}
	t := &respTemplate{}
	s := ThinkTag{Name: "hf", Start: StartContent, Repeats: RepeatsReopenVerbatim}
	var drops, toolCloses []string
	// The thinking field: open and close are the block's markers.
	think, err := parseTmplField(fields, fieldThinking)
	if err != nil {
		return nil, err
	}
	switch {
	case think.open == nil:
		return nil, fmt.Errorf(`field %q has no open: a template whose text outside regions is reasoning is not supported`, fieldThinking)
	case think.close == nil:
		return nil, fmt.Errorf(`field %q has no close: reasoning would never end`, fieldThinking)
	}
	s.Open, s.Close = think.open, think.close
	t.repeats = think.repeats
	// The content field, which may have no open: its markers are dropped.
	if _, ok := fields[fieldContent]; ok {
		c, err := parseTmplField(fields, fieldContent)
		if err != nil {
			return nil, err
		}
		drops = slices.Concat(c.open, c.close)
	}
	// The tool_calls field: its calls stay in content, verbatim.
	if _, ok := fields[fieldTools]; ok {
		c, err := parseTmplField(fields, fieldTools)
		if err != nil {
			return nil, err
		}
		if c.open == nil {
			return nil, fmt.Errorf(`field %q has no open: a template whose text outside regions is a tool call is not supported`, fieldTools)
		}
		s.Tools, toolCloses = c.open, c.close
	}
	markers := slices.Concat(think.open, think.close, drops, s.Tools, toolCloses)
	if err := marker.Check(markers); err != nil {
		return nil, fmt.Errorf("delimiters clash: %w", err)
	}
	// The start anchor: where the response starts in a prompt.
	lits, hasLits := spec["start_anchor"]
	pat, hasPat := spec["start_anchor_pattern"]
	switch {
	case hasLits && hasPat:
		return nil, errors.New(`both "start_anchor" and "start_anchor_pattern"`)
	case hasLits:
		if t.anchor.literals, err = tmplLiterals(`"start_anchor"`, lits); err != nil {
			return nil, err
		}
		t.anchor.overlaps = mayOverlap(t.anchor.literals)
	case hasPat:
		ps, ok := pat.(string)
		if !ok {
			return nil, fmt.Errorf(`"start_anchor_pattern" is not a string (got %s)`, jsonKind(pat))
		}
		if t.anchor.re, err = regexp.Compile(ps); err != nil {
			return nil, fmt.Errorf(`"start_anchor_pattern": unsupported regular expression (Go syntax): %w`, err)
		}
	default:
		return nil, errors.New(`no "start_anchor" or "start_anchor_pattern"`)
	}
	s.rules = []rule{dropped(drops...), toolBlocks(toolCloses...), sealed(), responseIn(t.anchor.cut)}
	if t.fam, err = compileTag(s); err != nil {
		return nil, err
	}
	return t, nil
}

// A tmplField is one field of a template: its delimiters as literals (nil when
// it has none).
type tmplField struct {
	open, close []string
	repeats     bool
}

// parseTmplField validates field name of fields.
func parseTmplField(fields map[string]any, name string) (tmplField, error) {
	var f tmplField
	scope := fmt.Sprintf("field %q", name)
	spec, ok := fields[name].(map[string]any)
	if !ok {
		return f, fmt.Errorf("%s is not an object", scope)
	}
	if err := tmplKeys(scope, spec, "open", "open_pattern", "close", "close_pattern", "content",
		"content_args", "repeats", "join", "optional", "transform", "transform_each"); err != nil {
		return f, err
	}
	// Thinking and content are streamed as text, as vLLM's serving checks.
	if name != fieldTools {
		if c, ok := spec["content"]; ok && c != "text" {
			return f, fmt.Errorf("%s: content %v cannot be streamed as text (unsupported semantics)", scope, c)
		}
		for _, k := range []string{"transform", "join"} {
			if v, ok := spec[k]; ok && v != nil {
				return f, fmt.Errorf("%s: %q cannot be streamed as text (unsupported semantics)", scope, k)
			}
		}
	}
	if r, ok := spec["repeats"]; ok {
		b, ok := r.(bool)
		if !ok {
			return f, fmt.Errorf("%s: \"repeats\" is not a boolean", scope)
		}
		f.repeats = b
	}
	var err error
	// A tool call stays in content, delimiters and all, so a pattern there
	// only has to say where the call starts and ends: its literal prefix
	// does. Elsewhere a delimiter is dropped and must be exact.
	prefixOK := name == fieldTools
	if f.open, err = tmplDelimiter(scope, spec, "open", prefixOK); err != nil {
		return f, err
	}
	if f.close, err = tmplDelimiter(scope, spec, "close", prefixOK); err != nil {
		return f, err
	}
	return f, nil
}

// tmplDelimiter reads key (a literal or list of literals) or key+"_pattern" of
// a field as literals: a pattern must be a plain literal, or, when prefixOK,
// have a literal prefix.
func tmplDelimiter(scope string, spec map[string]any, key string, prefixOK bool) ([]string, error) {
	lit, hasLit := spec[key]
	pat, hasPat := spec[key+"_pattern"]
	switch {
	case hasLit && hasPat:
		return nil, fmt.Errorf("%s: both %q and %q", scope, key, key+"_pattern")
	case hasLit:
		return tmplLiterals(fmt.Sprintf("%s: %q", scope, key), lit)
	case !hasPat:
		return nil, nil
	}
	what := fmt.Sprintf("%s: %q", scope, key+"_pattern")
	ps, ok := pat.(string)
	if !ok {
		return nil, fmt.Errorf("%s is not a string (got %s)", what, jsonKind(pat))
	}
	re, err := regexp.Compile(ps)
	if err != nil {
		return nil, fmt.Errorf("%s: unsupported regular expression (Go syntax): %w", what, err)
	}
	prefix, complete := re.LiteralPrefix()
	switch {
	case complete && prefix != "", prefixOK && prefix != "":
		return []string{prefix}, nil
	case prefixOK:
		return nil, fmt.Errorf("%s %q has no literal prefix: unsupported", what, ps)
	}
	return nil, fmt.Errorf("%s %q is not a plain literal: unsupported", what, ps)
}

// tmplLiterals reads a delimiter given as a string or a non-empty list of
// strings, none empty; duplicates are dropped.
func tmplLiterals(what string, v any) ([]string, error) {
	var out []string
	switch v := v.(type) {
	case string:
		out = []string{v}
	case []any:
		if len(v) == 0 {
			return nil, fmt.Errorf("%s: an empty list", what)
		}
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s: a list holding %s, not only strings", what, jsonKind(x))
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	case []string:
		return tmplLiterals(what, stringsAsAny(v))
	default:
		return nil, fmt.Errorf("%s: not a string or list of strings (got %s)", what, jsonKind(v))
	}
	if slices.Contains(out, "") {
		return nil, fmt.Errorf("%s: an empty string", what)
	}
	return out, nil
}

func stringsAsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// tmplKeys reports the keys of m that are not among allowed, sorted.
func tmplKeys(scope string, m map[string]any, allowed ...string) error {
	var unknown []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	if scope != "" {
		scope += ": "
	}
	return fmt.Errorf("%sunknown keys %q (known: %s)", scope, unknown, strings.Join(allowed, ", "))
}

// jsonKind names the JSON type of a decoded value, for errors.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// templateRules are one "hf" response's ID rules: the think-tag family of
// its template, with the end check and content IDs upstream's region
// parser gives.
type templateRules struct {
	*tagIDs
	tmpl     *respTemplate
	thinking bool         // enable_thinking: off, IDs that show nothing count as ended
	endWalk  templateWalk // what IsReasoningEndStreaming has read
}

// ended runs the template over the decoded text of ids, from after the last
// start anchor in them (the response's start when there is none): reasoning
// has ended when that leaves the response in content that has begun (text,
// a tool call, a content marker) or after a closed thinking block, and has
// not when it leaves it inside thinking. IDs that show neither count as
// ended only with thinking off. A thinking field that repeats never counts
// as ended.
func (r *templateRules) ended(ids []int) bool {
	if r.tmpl.repeats {
		return false
	}
	t := tokenText{tok: r.s.tok, ids: ids}
	text, s := t.all(), r.start
	if end, ok := r.tmpl.anchor.after(text); ok {
		text, s = text[end:], r.f.defaultStart()
	}
	var m machine
	m.reset(r.f, s)
	// Text held as a possible marker at the end is not flushed: like
	// upstream's probe, a partial delimiter decides nothing.
	m.feed(text, acceptAll, discard)
	return r.endedAt(m.g.state)
}

// endedAt is the end check's answer where the template leaves the response.
func (r *templateRules) endedAt(st tagState) bool {
	switch {
	case st.phase == phaseReasoning:
		return false
	case st.seen || st.begun:
		return true
	}
	return !r.thinking
}

// endAfter keeps the template's machine and a scanner for the start
// anchors running over the text so far, and reads only the IDs after from.
// A template whose anchors are a pattern, or literals that may overlap,
// has the whole response read again.
func (r *templateRules) endAfter(_ *endMemo, ids []int, from int, _ int8, _ bool) int8 {
	a := r.tmpl.anchor
	if r.tmpl.repeats || a.re != nil || a.overlaps {
		return int8(bit(r.ended(ids)))
	}
	w := &r.endWalk
	if !w.valid || w.n != from {
		w.reset(r.f, r.start, a.literals)
		w.feed(r.s.tok, ids[:from])
	}
	w.feed(r.s.tok, ids[w.n:])
	return int8(bit(r.endedAt(w.m.g.state)))
}

// templateWalk is the "hf" streaming end check's memory: the template's
// machine over the decoded text of the first n IDs from after the last
// start anchor in them, and a scanner that finds the anchors.
type templateWalk struct {
	valid   bool
	n       int // IDs read
	m       machine
	anchors marker.Scanner
	literal []string // the anchors, by the scanner's index
	text    int      // bytes of decoded text read
	out     int      // bytes the anchor scanner has returned, anchors included
}

func (w *templateWalk) reset(f *tagFamily, start tagState, anchors []string) {
	w.valid, w.n, w.text, w.out, w.literal = true, 0, 0, 0, anchors
	w.m.reset(f, start)
	w.anchors.Reset(anchors)
}

// feed reads ids, one token's text at a time: where an anchor ends in it,
// the machine starts again after it, as IsReasoningEnd's does.
func (w *templateWalk) feed(tok tokenizer.Tokenizer, ids []int) {
	for i := range ids {
		s := tok.Decode(ids[i : i+1])
		w.anchors.Feed(s)
		cut := -1 // where the last anchor that ends in s ends, in s
		for {
			held, text, k := w.anchors.Next()
			w.out += len(held) + len(text)
			if k < 0 {
				break
			}
			w.out += len(w.literal[k])
			cut = w.out - w.text
		}
		w.text += len(s)
		if cut >= 0 {
			w.m.reset(w.m.g.fam, w.m.g.fam.defaultStart())
			s = s[cut:]
		}
		w.m.feed(s, acceptAll, discard)
	}
	w.n += len(ids)
}

// contentIDs returns the content IDs after the last reasoning token, from
// after the last start anchor in ids (the response's start when there is
// none), as the text split gives them.
func (r *templateRules) contentIDs(ids []int) []int {
	t := tokenText{tok: r.s.tok, ids: ids}
	text, s := t.all(), r.start
	if end, ok := r.tmpl.anchor.after(text); ok {
		i, _ := slices.BinarySearch(t.start[:len(ids)], end) // the first token that starts at or after the anchor's end
		ids, s = ids[min(i, len(ids)):], r.f.defaultStart()
	}
	content := []int{}
	r.walk(ids, r.grammar(s), func(id int, ph phase) {
		if ph == phaseReasoning {
			content = content[:0]
		} else {
			content = append(content, id)
		}
	})
	return content
}

// gemma4ResponseTemplate is the response_template that Gemma 4's
// instruction checkpoints publish in tokenizer_config.json (as vLLM's tests
// quote it). It is the example metadata the registry-wide tests build "hf"
// with.
const gemma4ResponseTemplate = `{
  "defaults": {"role": "assistant"},
  "fields": {
    "content": {"close": ["<turn|>", "<|tool_response>", "<eos>"], "content": "text"},
    "thinking": {"close": "<channel|>", "content": "text", "open": "<|channel>thought\n"},
    "tool_calls": {
      "close": "<tool_call|>",
      "content": "json",
      "content_args": {"string_delims": [["<|\"|>", "<|\"|>"]], "unquoted_keys": true},
      "open_pattern": "<\\|tool_call>call:(?P<name>\\w+)",
      "repeats": true,
      "transform": {"function": {"arguments": "{content}", "name": "{name}"}, "type": "function"}
    }
  },
  "start_anchor": ["<|turn>model\n", "<tool_response|>"]
}`

// templateEntry describes "hf" for the registry-wide tests: the markers of
// Gemma 4's template, and the metadata to build it with.
func templateEntry() catalog.Entry {
	var tmpl any
	if err := json.Unmarshal([]byte(gemma4ResponseTemplate), &tmpl); err != nil {
		panic("parsers: Gemma 4 response_template: " + err.Error())
	}
	t, err := parseTemplate(tmpl)
	if err != nil {
		panic("parsers: Gemma 4 response_template: " + err.Error())
	}
	e := t.fam.entry()
	e.Config = map[string]any{"response_template": tmpl}
	return e
}
