package reasoning

import (
	"fmt"
	"slices"
	"strings"
)

// A ThinkingMode is a deployment's thinking default, Dynamo's
// default_thinking_mode: what a request that says nothing about thinking
// gets. The zero value, ThinkingAuto, sets no default.
//
// ThinkingMode implements encoding.TextMarshaler and
// encoding.TextUnmarshaler, so it can be a flag (flag.TextVar) or a field
// of a JSON or YAML configuration.
type ThinkingMode uint8

const (
	ThinkingAuto     ThinkingMode = iota // no deployment default: the family's own applies
	ThinkingEnabled                      // requests think unless they say otherwise
	ThinkingDisabled                     // requests do not think unless they say otherwise
)

var thinkingModeNames = [...]string{ThinkingAuto: "auto", ThinkingEnabled: "enabled", ThinkingDisabled: "disabled"}

// String returns "auto", "enabled" or "disabled".
func (m ThinkingMode) String() string {
	if int(m) < len(thinkingModeNames) {
		return thinkingModeNames[m]
	}
	return fmt.Sprintf("ThinkingMode(%d)", m)
}

// MarshalText returns the mode's name, as String.
func (m ThinkingMode) MarshalText() ([]byte, error) {
	if int(m) >= len(thinkingModeNames) {
		return nil, fmt.Errorf("%w: thinking mode %d (want ThinkingAuto, ThinkingEnabled or ThinkingDisabled)", ErrUnsupportedConfig, int(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText sets m from "enabled", "disabled", or "auto" (or empty text)
// for ThinkingAuto, in any case.
func (m *ThinkingMode) UnmarshalText(text []byte) error {
	s := strings.ToLower(strings.TrimSpace(string(text)))
	if s == "" {
		*m = ThinkingAuto
		return nil
	}
	for i, name := range thinkingModeNames {
		if s == name {
			*m = ThinkingMode(i)
			return nil
		}
	}
	return fmt.Errorf("%w: thinking mode %q (want enabled, disabled or auto)", ErrUnsupportedConfig, text)
}

// ThinkingDefaults are a deployment's defaults for the requests it serves.
type ThinkingDefaults struct {
	// ChatTemplateKwargs are chat_template_kwargs every request gets unless
	// it sets the key itself (vLLM's --default-chat-template-kwargs).
	ChatTemplateKwargs map[string]any
	// Mode is the thinking default used when neither the request nor
	// ChatTemplateKwargs says anything about thinking.
	Mode ThinkingMode
}

// A ThinkingSource says which rung of ResolveThinking's precedence decided
// about thinking.
type ThinkingSource uint8

const (
	ThinkingFromFamily        ThinkingSource = iota // nothing was said: the family's own default applies
	ThinkingFromRequest                             // the request's chat_template_kwargs or reasoning_effort
	ThinkingFromDefaultKwargs                       // the deployment's default chat_template_kwargs
	ThinkingFromMode                                // the deployment's ThinkingMode
)

var thinkingSourceNames = [...]string{
	ThinkingFromFamily:        "family",
	ThinkingFromRequest:       "request",
	ThinkingFromDefaultKwargs: "default kwargs",
	ThinkingFromMode:          "mode",
}

// String names the rung: "family", "request", "default kwargs" or "mode".
func (s ThinkingSource) String() string {
	if int(s) < len(thinkingSourceNames) {
		return thinkingSourceNames[s]
	}
	return fmt.Sprintf("ThinkingSource(%d)", s)
}

// The thinking controls: chat_template_kwargs keys that say whether a
// request thinks. Families read different ones (Qwen and GLM
// enable_thinking, Kimi and DeepSeek thinking, MiniMax M3 thinking_mode,
// Hunyuan reasoning_effort); the registered families add their own boolean
// keys (Info.SwitchKeys).
const (
	kwThinking       = "thinking"
	kwEnableThinking = "enable_thinking"
	kwThinkingMode   = "thinking_mode"
	kwEffort         = "reasoning_effort"
)

// isThinkingControl reports whether key is a thinking control, given the
// boolean ones.
func isThinkingControl(key string, bools []string) bool {
	return key == kwThinkingMode || key == kwEffort || slices.Contains(bools, key)
}

// ResolveThinking decides, for one request, the chat_template_kwargs to
// render its prompt with and to build its parser from, reaching every
// thinking switch registered in Default; see Registry.ResolveThinking.
func ResolveThinking(kwargs map[string]any, reasoningEffort string, d ThinkingDefaults) (map[string]any, ThinkingSource) {
	return Default.ResolveThinking(kwargs, reasoningEffort, d)
}

// ResolveThinking decides, for one request, the chat_template_kwargs to
// render its prompt with and to build its parser from
// (WithChatTemplateKwargs), and says which rung decided. kwargs are the
// request's chat_template_kwargs and reasoningEffort its top-level
// reasoning_effort ("" when absent); d are the deployment's defaults.
// Neither kwargs nor d is modified; the result is a new map, nil when
// empty.
//
// The thinking controls are the boolean switches thinking and
// enable_thinking, every other boolean switch key a name registered in r
// reads (its Info.SwitchKeys, thinking_mode and reasoning_effort aside, so
// a family switched by enable_reasoning is reached too), thinking_mode and
// reasoning_effort.
//
// The precedence is Dynamo's; the first rung that says anything decides:
//
//  1. The request: its chat_template_kwargs controls and the top-level
//     reasoning_effort, which wins over the key (as vLLM merges it).
//  2. The deployment's default chat_template_kwargs, the same keys.
//  3. The deployment's thinking mode, enabled or disabled.
//  4. The family's own default: nothing is written.
//
// A control whose value is null or "auto" (any case) counts as unset, at
// every rung. Within a rung, the boolean switches decide first (on when any
// is true, as vLLM's resolve_enable_thinking reads thinking and
// enable_thinking), then thinking_mode ("enabled" or "disabled"; "adaptive"
// leaves the choice to the model and decides nothing), then
// reasoning_effort ("none" and Hunyuan's "no_think" are off, any other
// effort on). A decision is then written in every dialect, each boolean
// switch as a boolean and thinking_mode as "enabled" or "disabled", so that
// every family reads the same answer; reasoning_effort is passed on as
// given but never invented, so families switched only by it (hy_v3, hy_v4,
// k2_horizon) keep their own default unless an effort was given. Keys
// other than the controls are merged, the request's over the deployment's.
//
// A gateway sends the result upstream as the request's chat_template_kwargs,
// so that the chat template and the parser agree.
func (r *Registry) ResolveThinking(kwargs map[string]any, reasoningEffort string, d ThinkingDefaults) (map[string]any, ThinkingSource) {
	bools := r.load().bools
	out := make(map[string]any, len(kwargs)+len(d.ChatTemplateKwargs)+len(bools)+1)
	for k, v := range d.ChatTemplateKwargs {
		if !isThinkingControl(k, bools) {
			out[k] = v
		}
	}
	for k, v := range kwargs {
		if !isThinkingControl(k, bools) {
			out[k] = v
		}
	}
	src := ThinkingFromFamily
	if req := thinkingControls(kwargs, reasoningEffort, bools); req.any() {
		req.apply(out, bools)
		src = ThinkingFromRequest
	} else if def := thinkingControls(d.ChatTemplateKwargs, "", bools); def.any() {
		def.apply(out, bools)
		src = ThinkingFromDefaultKwargs
	} else if d.Mode == ThinkingEnabled || d.Mode == ThinkingDisabled {
		setThinking(out, d.Mode == ThinkingEnabled, bools)
		src = ThinkingFromMode
	}
	if len(out) == 0 {
		return nil, src
	}
	return out, src
}

// controls are the thinking controls one rung sets, unset ones left out.
type controls map[string]any

// thinkingControls collects the controls set in kw, with effort (a
// top-level reasoning_effort) over kw's own.
func thinkingControls(kw map[string]any, effort string, bools []string) controls {
	c := Config{ChatTemplateKwargs: kw}
	var out controls
	for _, k := range slices.Concat(bools, []string{kwThinkingMode, kwEffort}) {
		if v, ok := c.Kwarg(k); ok {
			if out == nil {
				out = make(controls, 4)
			}
			out[k] = v
		}
	}
	if e := strings.TrimSpace(effort); e != "" && !strings.EqualFold(e, "auto") {
		if out == nil {
			out = make(controls, 1)
		}
		out[kwEffort] = effort
	}
	return out
}

func (c controls) any() bool { return len(c) > 0 }

// apply writes the controls into out and, when they decide, the decision
// in every dialect.
func (c controls) apply(out map[string]any, bools []string) {
	for k, v := range c {
		out[k] = v
	}
	if on, ok := c.decide(bools); ok {
		setThinking(out, on, bools)
	}
}

// decide is the rung's answer: the boolean switches, then thinking_mode,
// then reasoning_effort; ok is false when none of them decides.
func (c controls) decide(bools []string) (on, ok bool) {
	if on, set := (Config{ChatTemplateKwargs: c}).Thinking(bools...); set {
		return on, true
	}
	if v, set := c[kwThinkingMode]; set {
		s, _ := v.(string)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "enabled":
			return true, true
		case "disabled":
			return false, true
		case "adaptive":
			return false, false // the model decides
		}
	}
	if v, set := c[kwEffort]; set {
		s, isString := v.(string)
		if !isString {
			return false, false
		}
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "none", "no_think":
			return false, true
		}
		return true, true
	}
	return false, false
}

// setThinking states a decision in every dialect families read: each
// boolean switch, and thinking_mode.
func setThinking(out map[string]any, on bool, bools []string) {
	for _, k := range bools {
		out[k] = on
	}
	if on {
		out[kwThinkingMode] = "enabled"
	} else {
		out[kwThinkingMode] = "disabled"
	}
}
