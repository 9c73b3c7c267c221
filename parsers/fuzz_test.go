package parsers_test

import (
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// One fuzz target per family: the names that share one file's code, as
// ../shared/spec/README.md groups them (go test -fuzz takes one target at a
// time, so a target per name would spread a fuzzing budget thin over names
// that run the same machine). The fuzzer picks the name. fuzzGroups gives
// each target its names; FuzzThinkTag takes every registered name no other
// target does, so a family added later is fuzzed without anyone
// remembering. TestFuzzTargets checks the groups against the registry and
// the targets this binary holds.

const casesDir = "../testdata/cases"

// catchAll is the target that takes the names no group lists.
const catchAll = "FuzzThinkTag"

// specTargets fuzz something other than registered names (FuzzSpec: the
// public ThinkTag spec itself; FuzzNormalizer: minimax_m2_sanitized's
// content normaliser against its plain reference).
var specTargets = []string{"FuzzSpec", "FuzzNormalizer"}

// fuzzGroups are the names of each target but catchAll.
var fuzzGroups = map[string][]string{
	"FuzzDeepSeek": {"deepseek_v3", "holo2", "deepseek_v4", "deepseek_v41", "poolside_v1"},
	"FuzzQwen3":    {"qwen3", "mimo", "minicpmv", "nemotron_v3", "granite_thinking_parser", "qwen3_thinking", "interns1"},
	"FuzzGLM":      {"glm45", "glm47", "ling3"},
	"FuzzPlamo":    {"plamo3"},
	"FuzzCohere":   {"cohere_command3", "cohere_command4"},
	"FuzzTemplate": {"hf"},
	"FuzzIdentity": {"identity"},
	"FuzzHarmony":  {"openai_gptoss", "beam"},
	"FuzzGemma":    {"gemma4"},
	"FuzzMuse":     {"muse_glimmer", "muse_spark"},
	"FuzzInkling":  {"inkling"},
	"FuzzGranite":  {"granite"},
	"FuzzHunyuan":  {"hunyuan_a13b", "hy_v3", "hy_v4"},
	"FuzzKimi":     {"kimi_k2", "kimi_k25", "kimi", "kimi_k3", "k2_horizon"},
	"FuzzMistral":  {"mistral"},
}

// fuzzNames returns the names of the target named target: its group's, or
// for catchAll every registered name no group lists, in registry order.
func fuzzNames(target string) []string {
	if target != catchAll {
		return fuzzGroups[target]
	}
	grouped := slices.Concat(slices.Collect(maps.Values(fuzzGroups))...)
	var rest []string
	for _, name := range reasoning.Names() {
		if !slices.Contains(grouped, name) {
			rest = append(rest, name)
		}
	}
	return rest
}

// fuzz runs the target f is: the names fuzzNames gives its name.
func fuzz(f *testing.F) { conformance.Fuzz(f, casesDir, fuzzNames(f.Name())...) }

func FuzzThinkTag(f *testing.F) { fuzz(f) }
func FuzzDeepSeek(f *testing.F) { fuzz(f) }
func FuzzQwen3(f *testing.F)    { fuzz(f) }
func FuzzGLM(f *testing.F)      { fuzz(f) }
func FuzzPlamo(f *testing.F)    { fuzz(f) }
func FuzzCohere(f *testing.F)   { fuzz(f) }
func FuzzTemplate(f *testing.F) { fuzz(f) }
func FuzzIdentity(f *testing.F) { fuzz(f) }
func FuzzHarmony(f *testing.F)  { fuzz(f) }
func FuzzGemma(f *testing.F)    { fuzz(f) }
func FuzzMuse(f *testing.F)     { fuzz(f) }
func FuzzInkling(f *testing.F)  { fuzz(f) }
func FuzzGranite(f *testing.F)  { fuzz(f) }
func FuzzHunyuan(f *testing.F)  { fuzz(f) }
func FuzzKimi(f *testing.F)     { fuzz(f) }
func FuzzMistral(f *testing.F)  { fuzz(f) }

// TestFuzzTargets fails for a registered name that no fuzz target covers or
// that two cover, for a group naming what is not a registered canonical
// name, and for a group without its target or a target without its group
// (the targets are the ones this test binary lists, as go test -list does).
func TestFuzzTargets(t *testing.T) {
	out, err := exec.Command(os.Args[0], "-test.list", "^Fuzz").Output()
	if err != nil {
		t.Fatalf("listing the fuzz targets: %v", err)
	}
	targets := strings.Fields(string(out))
	if !slices.Contains(targets, catchAll) {
		t.Fatalf("no fuzz target %s, which takes the names no group lists (targets: %q)", catchAll, targets)
	}
	seen := map[string]int{}
	for _, target := range targets {
		if slices.Contains(specTargets, target) {
			continue
		}
		names := fuzzNames(target)
		if target != catchAll && fuzzGroups[target] == nil {
			t.Errorf("fuzz target %s has no group in fuzzGroups", target)
		}
		if len(names) == 0 {
			t.Errorf("fuzz target %s has no names", target)
		}
		for _, name := range names {
			seen[name]++
		}
	}
	for target := range fuzzGroups {
		if !slices.Contains(targets, target) {
			t.Errorf("fuzzGroups has a group for %s, which is not a fuzz target", target)
		}
	}
	for _, name := range reasoning.Names() {
		switch seen[name] {
		case 0:
			t.Errorf("registered parser %q has no fuzz target", name)
		case 1:
		default:
			t.Errorf("registered parser %q is in %d fuzz targets", name, seen[name])
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("a fuzz target names %q, which is not a registered canonical name", name)
	}
	t.Logf("%s takes %q", catchAll, fuzzNames(catchAll))
}
