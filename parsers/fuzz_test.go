package parsers_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// One fuzz target per family: the names that share one file's code, as
// ../shared/spec/README.md groups them (go test -fuzz takes one target at a
// time, so a target per name would spread a fuzzing budget thin over names
// that run the same machine). The fuzzer picks the name. TestFuzzTargets
// checks that every registered name is in exactly one target.

const casesDir = "../testdata/cases"

func FuzzThinkTag(f *testing.F) {
	conformance.Fuzz(f, casesDir, "deepseek_r1", "ernie45", "step3", "step3p5", "olmo3", "seed_oss",
		"minimax_m2", "minimax_m2_append_think", "minimax_m3", "basic", "minimax_append_think", "nemotron_deci")
}

func FuzzDeepSeek(f *testing.F) {
	conformance.Fuzz(f, casesDir, "deepseek_v3", "holo2", "deepseek_v4", "deepseek_v41", "poolside_v1")
}

func FuzzQwen3(f *testing.F) {
	conformance.Fuzz(f, casesDir, "qwen3", "mimo", "minicpmv", "nemotron_v3", "granite_thinking_parser",
		"qwen3_thinking", "interns1")
}

func FuzzGLM(f *testing.F)      { conformance.Fuzz(f, casesDir, "glm45", "glm47", "ling3") }
func FuzzPlamo(f *testing.F)    { conformance.Fuzz(f, casesDir, "plamo3") }
func FuzzCohere(f *testing.F)   { conformance.Fuzz(f, casesDir, "cohere_command3", "cohere_command4") }
func FuzzTemplate(f *testing.F) { conformance.Fuzz(f, casesDir, "hf") }
func FuzzIdentity(f *testing.F) { conformance.Fuzz(f, casesDir, "identity") }
func FuzzHarmony(f *testing.F)  { conformance.Fuzz(f, casesDir, "openai_gptoss", "beam") }
func FuzzGemma(f *testing.F)    { conformance.Fuzz(f, casesDir, "gemma4") }
func FuzzMuse(f *testing.F)     { conformance.Fuzz(f, casesDir, "muse_glimmer", "muse_spark") }
func FuzzInkling(f *testing.F)  { conformance.Fuzz(f, casesDir, "inkling") }
func FuzzGranite(f *testing.F)  { conformance.Fuzz(f, casesDir, "granite") }
func FuzzHunyuan(f *testing.F)  { conformance.Fuzz(f, casesDir, "hunyuan_a13b", "hy_v3", "hy_v4") }
func FuzzKimi(f *testing.F) {
	conformance.Fuzz(f, casesDir, "kimi_k2", "kimi_k25", "kimi", "kimi_k3", "k2_horizon")
}
func FuzzMistral(f *testing.F) { conformance.Fuzz(f, casesDir, "mistral") }

// TestFuzzTargets fails for a registered name that no fuzz target of this
// file covers, or that two cover, so that a new family cannot be added
// without one.
func TestFuzzTargets(t *testing.T) {
	src, err := os.ReadFile("fuzz_test.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := regexp.MustCompile(`conformance\.Fuzz\(f, casesDir((?:,\s*"[a-z0-9_]+")+)\)`).FindAllStringSubmatch(string(src), -1)
	seen := map[string]int{}
	for _, c := range calls {
		for _, m := range regexp.MustCompile(`"([a-z0-9_]+)"`).FindAllStringSubmatch(c[1], -1) {
			seen[m[1]]++
		}
	}
	for _, name := range reasoning.Names() {
		switch seen[name] {
		case 0:
			t.Errorf("registered parser %q has no fuzz target in fuzz_test.go", name)
		case 1:
		default:
			t.Errorf("registered parser %q is in %d fuzz targets", name, seen[name])
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("fuzz target names %q, which is not a registered canonical name", name)
	}
}
