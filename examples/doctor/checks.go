package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// A finding is one pitfall that applies: what is wrong, the evidence, the fix.
type finding struct {
	Check    string   `json:"check"`
	What     string   `json:"what"`
	Evidence []string `json:"evidence"`
	Fix      []string `json:"fix"`
}

// A check looks for one pitfall. run returns nil when it does not apply or
// when what it needs was not given.
type check struct {
	name  string
	needs string // the inputs it reads, for -h
	about string // the pitfall, for -h
	run   func(c *capture) *finding
}

// checks in the order the report prints them.
var checks = []check{
	{"unknown-parser", "-parser",
		"The parser name is not registered (names match case-insensitively, - and _ alike); suggests the closest names and aliases by edit distance.",
		checkUnknown},
	{"build", "-parser, -vocab, -request",
		"The parser cannot be built from this vocabulary or request (a missing tokenizer_config.json, a reasoning_effort the family rejects).",
		checkBuild},
	{"multi-token-delimiter", "-parser, -vocab",
		"A delimiter that some parser needs as one vocabulary entry is several tokens in this vocabulary. This library matches text and token sequences, so only its poolside_v1 <assistant> must be one token; upstream vLLM looks the markers up as single entries for deepseek_r1, ernie45 and step3 (BaseThinking-style classes), for deepseek_v3, holo2 and poolside_v1 with thinking on, poolside_v1's <assistant> always, and in older releases glm45, glm47, seed_oss, minimax_m2, minimax_m3, step3p5 and kimi_k2, and fails when it builds the parser. Other families match text and are not checked. The finding also says what a multi-token end marker costs ID-level gating.",
		checkMultiToken},
	{"client-field", "-response, -client-field",
		"The client reads reasoning_content but the server writes reasoning, or the reverse.",
		checkClientField},
	{"start-in-prompt", "-parser, -response or -prompt",
		"The chat template put the start tag in the prompt while the server's parser looks for it in the output: the end tag (</think>) is in content and reasoning is empty.",
		checkStartInPrompt},
	{"tags-in-content", "-parser, -response",
		"Both tags are in content and reasoning is empty: the server ran no reasoning parser, or was told not to separate.",
		checkTagsInContent},
	{"thinking-off", "-parser, -response or -prompt/-request/-thinking",
		"Thinking was disabled (or the model skipped it) but the family treats tagless text as reasoning: the answer lands in reasoning and content is empty.",
		checkThinkingOff},
	{"missed-end", "-parser, -response",
		"The end marker is inside reasoning: the server's parser missed it (a marker split across stream chunks), so the answer stayed in reasoning.",
		checkMissedEnd},
	{"tool-call-in-reasoning", "-response",
		"A tool call is stuck inside reasoning and the message has no tool_calls: the model called a tool before closing reasoning, and the parser did not end reasoning there.",
		checkToolInReasoning},
	{"truncated", "-response",
		"finish_reason is length and no end marker came: the token limit ran out while the model was still reasoning, so content is empty.",
		checkTruncated},
}

// capture is everything the user gave, read and prepared.
type capture struct {
	name        string // -parser as given
	canonical   string // "" when the name is unknown
	tok         tokenizer.Tokenizer
	vocabDir    string
	buildErr    error // reasoning.New with the vocabulary and the request
	kwargs      map[string]any
	request     *request
	prompt      *string
	promptFile  string
	resp        *response
	clientField string
	fam         *family // nil when the parser is unknown or cannot be built
}

// prepare resolves the name and probes the parser.
func (c *capture) prepare() error {
	canonical, ok := reasoning.Canonical(c.name)
	if !ok {
		return nil
	}
	c.canonical = canonical
	_, c.buildErr = reasoning.New(c.name, c.tok, reasoning.WithChatTemplateKwargs(c.kwargs))
	c.fam, _ = newFamily(canonical, c.tok, c.kwargs)
	return nil
}

// diagnose runs every check.
func diagnose(c *capture) []finding {
	var fs []finding
	for _, ch := range checks {
		if f := ch.run(c); f != nil {
			f.Check = ch.name
			fs = append(fs, *f)
		}
	}
	return fs
}

func checkUnknown(c *capture) *finding {
	if c.canonical != "" {
		return nil
	}
	f := &finding{
		What: fmt.Sprintf("no parser is registered as %q", c.name),
		Evidence: []string{fmt.Sprintf("%q matches none of the %d names and %d aliases (case and - or _ do not matter)",
			c.name, len(reasoning.Names()), len(aliases))},
	}
	near := closest(c.name)
	if len(near) == 0 {
		f.Evidence = append(f.Evidence, "no registered name is close to it")
		f.Fix = append(f.Fix, "pick one of: "+strings.Join(reasoning.Names(), ", "))
		return f
	}
	var list []string
	for _, s := range near {
		item := fmt.Sprintf("%s (%d edits)", s.name, s.d)
		if s.d == 1 {
			item = fmt.Sprintf("%s (1 edit)", s.name)
		}
		if s.canonical != s.name {
			item = strings.TrimSuffix(item, ")") + ", alias of " + s.canonical + ")"
		}
		list = append(list, item)
	}
	f.Evidence = append(f.Evidence, "closest: "+strings.Join(list, ", "))
	use := fmt.Sprintf("use -parser %s", near[0].name)
	if len(near) > 1 && near[1].key == near[0].key {
		var tied []string
		for _, s := range near {
			if s.key == near[0].key {
				tied = append(tied, s.name)
			}
		}
		use = "use the one for your model among " + strings.Join(tied, ", ")
	}
	f.Fix = append(f.Fix,
		use+", and the same name for the server's --reasoning-parser (check its documentation: engines name some families differently)",
		"the full list: reasoning.Names(), or the parsers package documentation (go doc github.com/reasoning-go/reasoning/parsers)")
	return f
}

func checkBuild(c *capture) *finding {
	if c.canonical == "" {
		return nil
	}
	err := c.buildErr
	if err == nil && c.fam == nil {
		_, err = reasoning.New(c.name, nil, reasoning.WithChatTemplateKwargs(c.kwargs))
	}
	if err == nil || (errors.Is(err, tokenizer.ErrUnencodable) && c.fam != nil) {
		return nil // multi-token-delimiter reports an unencodable delimiter
	}
	f := &finding{
		What:     fmt.Sprintf("the %s parser cannot be built from what was given", c.canonical),
		Evidence: []string{"reasoning.New: " + err.Error()},
	}
	switch {
	case errors.Is(err, tokenizer.ErrNoConfig):
		f.Fix = append(f.Fix, "give -vocab the model folder with its tokenizer_config.json: this family reads its markers from the tokenizer's metadata, as the server does")
	case errors.Is(err, tokenizer.ErrUnencodable):
		f.Fix = append(f.Fix, "give -vocab the folder of the tokenizer the server loads: this one cannot spell the family's markers")
	default:
		f.Fix = append(f.Fix, "correct the request (chat_template_kwargs, reasoning_effort) or the vocabulary the error names; the server rejects the same request")
	}
	if c.fam == nil {
		f.Fix = append(f.Fix, "the checks that run the parser were skipped")
	}
	return f
}

// singleNeed is a set of delimiters an upstream vLLM parser looks up as
// single vocabulary entries, failing when one is not.
type singleNeed struct {
	markers      []string
	class        string
	thinkingOnly bool // only with the thinking switch on, when the class builds DeepSeekR1ReasoningParser
	legacy       bool // only the legacy class of older releases; the engine parser matches token sequences
	base         bool // a BaseThinkingReasoningParser, whose error message is known
}

// vllmSingle lists, by canonical name, what vLLM needs as single tokens
// (spec vllm-thinktag §3.1, §5-§8, §12, §15.2, §22, §24, §25, §27; channels §8).
var vllmSingle = map[string][]singleNeed{
	"deepseek_r1": {{markers: []string{"<think>", "</think>"}, class: "DeepSeekR1ReasoningParser", base: true}},
	"deepseek_v3": {{markers: []string{"<think>", "</think>"}, class: "DeepSeekV3ReasoningParser", thinkingOnly: true, base: true}},
	"holo2":       {{markers: []string{"<think>", "</think>"}, class: "DeepSeekV3ReasoningWithThinkingParser", thinkingOnly: true, base: true}},
	"poolside_v1": {
		{markers: []string{"<assistant>"}, class: "PoolsideV1ReasoningParser"},
		{markers: []string{"<think>", "</think>"}, class: "PoolsideV1ReasoningParser", thinkingOnly: true, base: true},
	},
	"ernie45":    {{markers: []string{"<think>", "</think>"}, class: "Ernie45ReasoningParser", base: true}},
	"step3":      {{markers: []string{"</think>"}, class: "Step3ReasoningParser"}},
	"glm45":      {{markers: []string{"<think>", "</think>", "<|assistant|>"}, class: "Glm4MoeModelReasoningParser", legacy: true}},
	"glm47":      {{markers: []string{"<think>", "</think>", "<|assistant|>"}, class: "Glm4MoeModelReasoningParser", legacy: true}},
	"seed_oss":   {{markers: []string{"<seed:think>", "</seed:think>"}, class: "SeedOSSReasoningParser", legacy: true, base: true}},
	"minimax_m2": {{markers: []string{"<think>", "</think>"}, class: "MiniMaxM2ReasoningParser", legacy: true, base: true}},
	"minimax_m3": {{markers: []string{"<mm:think>", "</mm:think>"}, class: "MiniMaxM3ReasoningParser", legacy: true, base: true}},
	"step3p5":    {{markers: []string{"<think>", "</think>"}, class: "Step3p5ReasoningParser", legacy: true, base: true}},
	"kimi_k2":    {{markers: []string{"<think>"}, class: "KimiK2ReasoningParser", legacy: true}},
}

// thinkingDefault is the default of the families in vllmSingle whose need
// depends on the switch.
var thinkingDefault = map[string]bool{"deepseek_v3": false, "holo2": true, "poolside_v1": false}

func checkMultiToken(c *capture) *finding {
	if c.canonical == "" || c.tok == nil {
		return nil
	}
	f := &finding{What: "a delimiter the parser needs as one token is several tokens in this vocabulary"}
	var multi []string // the markers found to be several tokens
	if c.buildErr != nil && errors.Is(c.buildErr, tokenizer.ErrUnencodable) {
		f.Evidence = append(f.Evidence, "this library's reasoning.New fails with this vocabulary: "+c.buildErr.Error())
	}
	for _, need := range vllmSingle[c.canonical] {
		if need.thinkingOnly {
			on, set := reasoning.Config{ChatTemplateKwargs: c.kwargs}.Thinking(switchKeys...)
			if !set {
				on = thinkingDefault[c.canonical]
			}
			if !on {
				continue
			}
		}
		var bad []string
		for _, m := range need.markers {
			d, err := tokenizer.Resolve(c.tok, m)
			switch {
			case err != nil:
				bad = append(bad, fmt.Sprintf("%q cannot be encoded (%v)", m, err))
			case !d.Single():
				bad = append(bad, fmt.Sprintf("%q is %d tokens %v (%s)", m, len(d.IDs), d.IDs, pieces(c.tok, d.IDs)))
				multi = append(multi, m)
			}
		}
		if len(bad) == 0 {
			continue
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("in %s, %s", c.vocabDir, strings.Join(bad, "; ")))
		when := "vLLM's " + need.class
		if need.legacy {
			when = "vLLM releases before its engine parser (the legacy " + need.class + ")"
		}
		if need.thinkingOnly {
			when += ", with thinking on,"
		}
		fails := "fails when it builds the parser"
		if need.base {
			fails += " (\"... could not locate think start/end tokens in the tokenizer!\")"
		}
		f.Evidence = append(f.Evidence, when+" looks these up as single vocabulary entries and "+fails+": the server does not start, or rejects the request")
	}
	if len(f.Evidence) == 0 {
		return nil
	}
	own := "give the server (and -vocab) the model's own tokenizer folder: a model trained to think has its markers as added tokens"
	if slices.Contains(multi, "</think>") {
		own += " (DeepSeek-R1's tokenizer has <think> and </think>; the original DeepSeek-V3's has not)"
	}
	f.Fix = append(f.Fix, own)
	if c.buildErr == nil {
		f.alt("use a parser that matches text: this library's %s accepts multi-token markers and works with this vocabulary, as do vLLM's engine parsers (qwen3, glm45, deepseek_v4, ...)", c.canonical)
	}
	for _, m := range multi {
		if c.fam != nil && slices.Contains(c.fam.closes, m) {
			f.Fix = append(f.Fix, fmt.Sprintf("for ID-level gating (Gate, IsReasoningEnd, a structured-output backend) prefer single tokens: a multi-token %q ends reasoning only when its last token arrives, a thinking budget must force every token of it, and the same characters written as ordinary text count as the marker", m))
			break
		}
	}
	return f
}

// pieces shows the text of each token.
func pieces(tok tokenizer.Tokenizer, ids []int) string {
	var ps []string
	for _, id := range ids {
		ps = append(ps, fmt.Sprintf("%q", tok.Decode([]int{id})))
	}
	return strings.Join(ps, " ")
}

func checkClientField(c *capture) *finding {
	if c.resp == nil || c.clientField == "" {
		return nil
	}
	for _, ch := range c.resp.choices {
		want, other, otherName := ch.reasonCtt, ch.reasoning, fieldReasoning
		if c.clientField == fieldReasoning {
			want, other, otherName = ch.reasoning, ch.reasonCtt, fieldReasoningContent
		}
		if want.text != "" || other.text == "" {
			continue
		}
		state := "is absent"
		switch {
		case want.seen && c.resp.streamed:
			state = "is null or empty in every chunk"
		case want.seen:
			state = "is null or empty"
		}
		return &finding{
			What: fmt.Sprintf("the client reads %s but the server writes %s", c.clientField, otherName),
			Evidence: []string{
				fmt.Sprintf("%s holds %d bytes of reasoning: %s", c.resp.path(ch, otherName), len(other.text), excerpt(other.text, 60)),
				fmt.Sprintf("%s %s", c.resp.path(ch, c.clientField), state),
			},
			Fix: []string{
				fmt.Sprintf("make the client read %s; or read both, preferring whichever is non-empty: servers and their versions differ in the name", otherName),
				"or have the gateway between them copy the field under the name the client expects",
			},
		}
	}
	return nil
}

// Sample outputs for the predictions made without a response.
const (
	sampleAnswer = "The answer is 4."
	sampleThink  = "I need to add 2 and 2."
)

func checkStartInPrompt(c *capture) *finding {
	fam := c.fam
	if fam == nil || len(fam.closes) == 0 {
		return nil
	}
	f := &finding{}
	var content, closer string
	if c.resp != nil {
		for _, ch := range c.resp.choices {
			if r, _ := ch.reasoningText(); strings.TrimSpace(r) != "" {
				continue
			}
			text := ch.content.text
			var at int
			closer, at = index(text, fam.closes)
			if at < 0 {
				continue
			}
			if _, o := index(text[:at], fam.opens); o >= 0 {
				continue // tags-in-content
			}
			content = text
			f.Evidence = append(f.Evidence,
				fmt.Sprintf("%s holds %q at byte %d of %d, after %s", c.resp.path(ch, "content"), closer, at, len(text), excerpt(text[:at], 60)),
				"reasoning is empty: "+describeReasoning(c.resp, ch))
			break
		}
		if content == "" {
			return nil
		}
	}
	var opener string
	if c.prompt != nil {
		o, opened := endsWith(*c.prompt, fam.opens)
		switch {
		case opened:
			opener = o
			f.Evidence = append(f.Evidence, fmt.Sprintf("the prompt (%s) ends in %s: the chat template opened reasoning, so the output starts inside it and never writes %q", c.promptFile, tail(*c.prompt, 40), strings.TrimSpace(o)))
		case content != "":
			f.Evidence = append(f.Evidence, fmt.Sprintf("the prompt (%s) does not end in an opening marker (it ends in %s); the output still began inside reasoning", c.promptFile, tail(*c.prompt, 40)))
		}
	} else if content != "" {
		f.Evidence = append(f.Evidence, "give -prompt to see whether the chat template put the opening marker there")
	}
	if content == "" {
		// No response: predict from the prompt.
		if opener == "" {
			return nil
		}
		closer = fam.closes[0]
		content = sampleThink + "\n" + closer + "\n\n" + sampleAnswer
		if m := fam.served(content); strings.TrimSpace(m.Reasoning) != "" {
			return nil
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s, built as the server builds it (from the request, without the prompt), puts an output such as %q all in content", fam.name, content))
	}
	f.What = fmt.Sprintf("the start tag is in the prompt, but the parser looks for it in the output: %q lands in content and reasoning is empty", closer)
	ok := func(m reasoning.Message) bool {
		return strings.TrimSpace(m.Reasoning) != "" && !strings.Contains(m.Content, closer)
	}
	if m := fam.served(content); ok(m) {
		f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s starts in reasoning and splits this content into %d bytes of reasoning and %d of content", fam.name, len(m.Reasoning), len(m.Content)))
		f.Fix = append(f.Fix, fmt.Sprintf("the server's %s parser started in content: run one that starts in reasoning for this model (an SGLang gateway's qwen3 did not, sgl-project/sglang#35148), or re-split the output with this library", c.name))
		return f
	}
	if c.prompt != nil {
		if m, _ := fam.split(content, fam.kwargs, reasoning.WithPrompt(*c.prompt, nil)); ok(m) {
			f.alt("give the parser the prompt: reasoning.New(%q, tok, reasoning.WithPrompt(prompt, promptIDs)); a prompt that ends in an opening marker starts the response in reasoning", c.name)
		}
	}
	if m, _ := fam.split(content, fam.kwargs, reasoning.WithForceReasoning(true)); ok(m) {
		f.alt("force the response to start in reasoning: reasoning.WithForceReasoning(true), SGLang's and Dynamo's force_reasoning")
	}
	if alt := fam.others(func(g *family) bool { return ok(g.served(content)) }); len(alt) > 0 {
		f.alt("use a parser that starts in reasoning: %s", strings.Join(alt, ", "))
	}
	if len(f.Fix) == 0 {
		f.Fix = append(f.Fix, "start the response in reasoning: have the template leave the opening marker to the model, or split with a parser that starts in reasoning")
	}
	return f
}

func checkTagsInContent(c *capture) *finding {
	fam := c.fam
	if fam == nil || c.resp == nil || len(fam.opens) == 0 {
		return nil
	}
	for _, ch := range c.resp.choices {
		if r, _ := ch.reasoningText(); strings.TrimSpace(r) != "" {
			continue
		}
		text := ch.content.text
		opener, o := index(text, fam.opens)
		if o < 0 {
			continue
		}
		closer, e := index(text[o:], fam.closes)
		if e < 0 {
			continue
		}
		f := &finding{
			What: "the reasoning tags are in content and reasoning is empty: nothing separated them",
			Evidence: []string{
				fmt.Sprintf("%s holds %q at byte %d and %q at byte %d", c.resp.path(ch, "content"), strings.TrimSpace(opener), o, closer, o+e),
				"reasoning is empty: " + describeReasoning(c.resp, ch),
			},
		}
		if c.request != nil && c.request.SeparateReasoning != nil && !*c.request.SeparateReasoning {
			f.Evidence = append(f.Evidence, "the request sets separate_reasoning to false (SGLang): the server was asked to keep the text raw")
		}
		if m := fam.served(text); strings.TrimSpace(m.Reasoning) != "" {
			f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s splits this content into %d bytes of reasoning and %d of content", fam.name, len(m.Reasoning), len(m.Content)))
		}
		f.Fix = []string{
			fmt.Sprintf("start the server with its reasoning parser (vLLM and SGLang: --reasoning-parser %s) and do not turn separation off in the request", c.canonical),
			fmt.Sprintf("or split in the gateway or client: reasoning.New(%q, nil) and Extract, or ExtractStreaming per delta", c.canonical),
		}
		return f
	}
	return nil
}

func checkThinkingOff(c *capture) *finding {
	fam := c.fam
	if fam == nil {
		return nil
	}
	var off []string // why thinking was off
	cfg := reasoning.Config{ChatTemplateKwargs: c.kwargs}
	for _, k := range switchKeys {
		if on, set := cfg.Thinking(k); set && !on {
			off = append(off, fmt.Sprintf("the request sets chat_template_kwargs.%s to %v", k, c.kwargs[k]))
		}
	}
	if v, ok := cfg.Kwarg("thinking_mode"); ok && fmt.Sprint(v) == "disabled" {
		off = append(off, `the request sets chat_template_kwargs.thinking_mode to "disabled"`)
	}
	if v, ok := cfg.Kwarg("reasoning_effort"); ok && (fmt.Sprint(v) == "none" || fmt.Sprint(v) == "no_think") {
		off = append(off, fmt.Sprintf("the request sets reasoning_effort to %q", v))
	}
	if c.prompt != nil {
		if m, ok := endsWith(*c.prompt, fam.closes); ok {
			off = append(off, fmt.Sprintf("the prompt (%s) ends in %s: the chat template closed reasoning before the output (%q, the thinking-disabled prefill)", c.promptFile, tail(*c.prompt, 40), m))
		}
	}
	f := &finding{What: "thinking was off, but the parser treats tagless text as reasoning: the answer lands in reasoning and content is empty"}
	var answer string
	if c.resp != nil {
		for _, ch := range c.resp.choices {
			r, name := ch.reasoningText()
			if strings.TrimSpace(r) == "" || strings.TrimSpace(ch.content.text) != "" || ch.finish == "length" {
				continue
			}
			if _, at := index(r, fam.closes); at >= 0 {
				continue // missed-end
			}
			if _, at := index(r, slices.Concat(toolMarkers, fam.tools)); at >= 0 {
				continue // tool-call-in-reasoning
			}
			if len(off) == 0 && ch.finish != "stop" {
				continue
			}
			answer = r
			f.Evidence = append(f.Evidence, off...)
			f.Evidence = append(f.Evidence, fmt.Sprintf("%s holds the whole output (%d bytes, no %q: %s), content is empty, finish_reason is %q",
				c.resp.path(ch, name), len(r), firstOf(fam.closes), excerpt(r, 60), ch.finish))
			if len(off) == 0 {
				f.What = "the model answered without closing reasoning, and the parser read the tagless answer as reasoning"
				f.Evidence = append(f.Evidence, "the model ended its turn inside what the parser took for reasoning: it skipped thinking (sgl-project/sglang#37645), or thinking was off and the parser was not told (give -request or -prompt to tell which)")
			}
			break
		}
		if answer == "" {
			return nil
		}
	} else {
		if len(off) == 0 {
			return nil
		}
		if m := fam.served(sampleAnswer); strings.TrimSpace(m.Reasoning) == "" {
			return nil
		}
		answer = sampleAnswer
		f.Evidence = append(f.Evidence, off...)
		f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s, built as the server builds it (from the request, without the prompt), puts a tagless answer such as %q in reasoning", fam.name, sampleAnswer))
	}
	isContent := func(m reasoning.Message) bool {
		return strings.TrimSpace(m.Reasoning) == "" && strings.TrimSpace(m.Content) != ""
	}
	switched := false
	var settings []map[string]any // each switch that may turn thinking off, alone
	for _, k := range switchKeys {
		settings = append(settings, map[string]any{k: false})
	}
	settings = append(settings, map[string]any{"thinking_mode": "disabled"}, map[string]any{"reasoning_effort": "no_think"}, map[string]any{"reasoning_effort": "none"})
	for _, kw := range settings {
		if m, ok := fam.split(answer, merge(c.kwargs, kw)); ok && isContent(m) {
			key, val := only(kw)
			tell := "tell the parser thinking is off"
			if len(off) == 0 {
				tell = "if thinking was off, tell the parser"
			}
			f.alt("%s: %s reads chat_template_kwargs.%s; send %s: %#v with the request", tell, fam.name, key, key, val)
			switched = true
			break
		}
	}
	if !switched {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s has no thinking switch: it starts in reasoning whatever the request says", fam.name))
	}
	if c.prompt != nil {
		if m, _ := fam.split(answer, fam.kwargs, reasoning.WithPrompt(*c.prompt, nil)); isContent(m) {
			f.alt("give the parser the prompt: reasoning.New(%q, tok, reasoning.WithPrompt(prompt, promptIDs)); a prompt that closed reasoning starts the response in content (vLLM's server checks the prompt's last token the same way)", c.name)
		}
	}
	if !switched {
		alt := fam.others(func(g *family) bool {
			m, ok := g.split(answer, merge(c.kwargs, switches(false)))
			if !ok || !isContent(m) {
				return false
			}
			s, ok := g.split(sampleThink+firstOf(fam.closes)+sampleAnswer, merge(c.kwargs, switches(true)))
			return ok && strings.TrimSpace(s.Reasoning) == sampleThink
		})
		if len(alt) > 0 {
			f.alt("use a parser with a thinking switch: %s", strings.Join(alt, ", "))
		}
	}
	if len(off) == 0 {
		f.alt("if the model did write %q but the server strips special tokens from the text, send skip_special_tokens: false", firstOf(fam.closes))
	}
	f.alt("take a reasoning-only answer as the answer: reasoning.WithNonEmptyContent(true), SGLang's force_nonempty_content (a last resort)")
	return f
}

func checkMissedEnd(c *capture) *finding {
	fam := c.fam
	if fam == nil || c.resp == nil || len(fam.closes) == 0 {
		return nil
	}
	for _, ch := range c.resp.choices {
		r, name := ch.reasoningText()
		closer, at := index(r, fam.closes)
		if at < 0 {
			continue
		}
		after := r[at+len(closer):]
		f := &finding{
			What: fmt.Sprintf("the end marker %q is inside reasoning: the server's parser missed it and the answer stayed in reasoning", closer),
			Evidence: []string{
				fmt.Sprintf("%s holds %q at byte %d, followed by %d bytes: %s", c.resp.path(ch, name), closer, at, len(after), excerpt(after, 60)),
				fmt.Sprintf("%s has %d bytes", c.resp.path(ch, "content"), len(ch.content.text)),
			},
		}
		if tool, t := index(after, slices.Concat(fam.tools, toolMarkers)); t >= 0 && ch.toolCalls == 0 {
			f.Evidence = append(f.Evidence, fmt.Sprintf("the tool call after it (%s) was absorbed into reasoning too: the message has no tool_calls", tool))
		}
		if m, ok := fam.split(r, fam.kwargs, reasoning.WithForceReasoning(true)); ok && strings.TrimSpace(m.Content) != "" {
			f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s splits it into %d bytes of reasoning and %d of content", fam.name, len(m.Reasoning), len(m.Content)))
		}
		f.Fix = []string{
			"upgrade the server's parser: the usual cause is a marker cut in two by stream chunks and never joined (ai-dynamo/dynamo PR #10569, InternLM/lmdeploy PR #4754), or one recognised only by its token ID while its text came apart from it",
			"or re-split the output with this library, which finds a marker across any delta boundary",
		}
		return f
	}
	return nil
}

func checkToolInReasoning(c *capture) *finding {
	if c.resp == nil {
		return nil
	}
	markers := toolMarkers
	if c.fam != nil {
		markers = slices.Concat(c.fam.tools, toolMarkers)
	}
	for _, ch := range c.resp.choices {
		r, name := ch.reasoningText()
		tool, at := index(r, markers)
		if at < 0 || ch.toolCalls > 0 {
			continue
		}
		if c.fam != nil {
			if _, e := index(r[:at], c.fam.closes); e >= 0 {
				continue // missed-end: reasoning should have ended before the call
			}
		}
		f := &finding{
			What: fmt.Sprintf("a tool call (%s) is stuck inside reasoning, and the message has no tool_calls", tool),
			Evidence: []string{
				fmt.Sprintf("%s holds %q at byte %d: %s", c.resp.path(ch, name), tool, at, excerpt(r[at:], 80)),
				fmt.Sprintf("no tool_calls in choice %d; finish_reason is %q", ch.index, ch.finish),
			},
		}
		fam := c.fam
		switch {
		case fam == nil:
			f.Fix = append(f.Fix, "use a reasoning parser that ends reasoning at the model's tool-call opener, so that the call reaches the tool parser")
		case slices.Contains(fam.tools, tool):
			if m, ok := fam.split(r, fam.kwargs, reasoning.WithForceReasoning(true)); ok {
				f.Evidence = append(f.Evidence, fmt.Sprintf("this library's %s ends reasoning at %q and keeps the call in content for the tool parser (here %d bytes of reasoning, then %d of content)", fam.name, tool, len(m.Reasoning), len(m.Content)))
			}
			f.Fix = append(f.Fix, fmt.Sprintf("the server's %s parser does not end reasoning at %q: upgrade it (Ollama's qwen3 before PR #14477 did this), or re-split the output with this library", c.name, tool))
		default:
			f.Evidence = append(f.Evidence, fmt.Sprintf("%s does not end reasoning at %q (nor does its upstream): the model called the tool before closing reasoning", fam.name, tool))
			if alt := fam.others(func(g *family) bool {
				m, ok := g.split("alpha\n"+tool+"{}", thinkingOn(fam.kwargs), reasoning.WithForceReasoning(true))
				return ok && strings.HasPrefix(strings.TrimSpace(m.Content), tool)
			}); len(alt) > 0 {
				f.alt("use a parser that ends reasoning at %q: %s", tool, strings.Join(alt, ", "))
			}
			f.alt("run the tool-call parser over the reasoning too, or have the template (or system prompt) ask the model to close reasoning before it calls a tool")
		}
		return f
	}
	return nil
}

func checkTruncated(c *capture) *finding {
	if c.resp == nil {
		return nil
	}
	for _, ch := range c.resp.choices {
		if ch.finish != "length" || strings.TrimSpace(ch.content.text) != "" {
			continue
		}
		r, name := ch.reasoningText()
		f := &finding{
			What:     "the output was cut off by the token limit while the model was still reasoning: no end marker came, so content is empty",
			Evidence: []string{fmt.Sprintf("choice %d: finish_reason is \"length\"", ch.index)},
		}
		if r == "" {
			f.Evidence = append(f.Evidence, "reasoning and content are both empty")
		} else {
			line := fmt.Sprintf("%s holds %d bytes, ending %s", c.resp.path(ch, name), len(r), tail(r, 40))
			if c.fam != nil && len(c.fam.closes) > 0 {
				line += fmt.Sprintf(", with no %q", firstOf(c.fam.closes))
			}
			f.Evidence = append(f.Evidence, line)
		}
		if u := c.resp.usage; u != nil {
			line := fmt.Sprintf("usage.completion_tokens is %d", u.CompletionTokens)
			if d := u.CompletionTokensDetails; d != nil && d.ReasoningTokens != nil {
				line += fmt.Sprintf(", of which reasoning_tokens %d", *d.ReasoningTokens)
			}
			if n, key := c.request.maxTokens(); key != "" {
				line += fmt.Sprintf("; the request's %s is %d", key, n)
			}
			f.Evidence = append(f.Evidence, line)
		}
		f.Fix = []string{
			"raise max_tokens (max_completion_tokens): the limit counts reasoning tokens too",
			"or bound the reasoning: a lower reasoning_effort where the model has one, or a thinking budget that forces the end marker in time (this library's Gate: reasoning.NewGate(p, reasoning.WithThinkingBudget(n, nil)))",
			"treat the partial reasoning as reasoning, not as the answer: every parser here keeps an unclosed block as reasoning; retry, or continue the generation",
		}
		return f
	}
	return nil
}

// describeReasoning says what the reasoning fields of a choice held.
func describeReasoning(r *response, ch *choice) string {
	var parts []string
	for _, x := range []struct {
		name string
		f    field
	}{{fieldReasoning, ch.reasoning}, {fieldReasoningContent, ch.reasonCtt}} {
		switch {
		case !x.f.seen:
			parts = append(parts, x.name+" absent")
		case x.f.text == "":
			parts = append(parts, x.name+" null or empty")
		default:
			parts = append(parts, fmt.Sprintf("%s %d bytes of whitespace", x.name, len(x.f.text)))
		}
	}
	return strings.Join(parts, ", ")
}

// alt adds a fix that is an alternative to those before it.
func (f *finding) alt(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if len(f.Fix) > 0 {
		s = "or " + s
	}
	f.Fix = append(f.Fix, s)
}

func firstOf(ms []string) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[0]
}

// only returns the one key of a one-entry map.
func only(m map[string]any) (string, any) {
	for k, v := range m {
		return k, v
	}
	return "", nil
}

// excerpt quotes the start of s, at most n bytes, cut on a rune boundary.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%q…", s[:n])
}

// tail quotes the end of s, at most n bytes, cut on a rune boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return fmt.Sprintf("…%q", s[i:])
}
