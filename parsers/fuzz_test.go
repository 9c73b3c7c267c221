package parsers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// One fuzz target per family (go test -fuzz takes one target at a time).
// TestFuzzTargets checks that every registered name has one in some test file
// of this package.

const casesDir = "../testdata/cases"

func FuzzBasic(f *testing.F)                { conformance.Fuzz(f, "basic", casesDir) }
func FuzzCohereCommand3(f *testing.F)       { conformance.Fuzz(f, "cohere_command3", casesDir) }
func FuzzCohereCommand4(f *testing.F)       { conformance.Fuzz(f, "cohere_command4", casesDir) }
func FuzzDeepSeekR1(f *testing.F)           { conformance.Fuzz(f, "deepseek_r1", casesDir) }
func FuzzDeepSeekV3(f *testing.F)           { conformance.Fuzz(f, "deepseek_v3", casesDir) }
func FuzzDeepSeekV4(f *testing.F)           { conformance.Fuzz(f, "deepseek_v4", casesDir) }
func FuzzDeepSeekV41(f *testing.F)          { conformance.Fuzz(f, "deepseek_v41", casesDir) }
func FuzzErnie45(f *testing.F)              { conformance.Fuzz(f, "ernie45", casesDir) }
func FuzzGLM45(f *testing.F)                { conformance.Fuzz(f, "glm45", casesDir) }
func FuzzGLM47(f *testing.F)                { conformance.Fuzz(f, "glm47", casesDir) }
func FuzzGraniteThinking(f *testing.F)      { conformance.Fuzz(f, "granite_thinking_parser", casesDir) }
func FuzzHF(f *testing.F)                   { conformance.Fuzz(f, "hf", casesDir) }
func FuzzHolo2(f *testing.F)                { conformance.Fuzz(f, "holo2", casesDir) }
func FuzzIdentity(f *testing.F)             { conformance.Fuzz(f, "identity", casesDir) }
func FuzzInternS1(f *testing.F)             { conformance.Fuzz(f, "interns1", casesDir) }
func FuzzLing3(f *testing.F)                { conformance.Fuzz(f, "ling3", casesDir) }
func FuzzMiMo(f *testing.F)                 { conformance.Fuzz(f, "mimo", casesDir) }
func FuzzMiniCPMV(f *testing.F)             { conformance.Fuzz(f, "minicpmv", casesDir) }
func FuzzMiniMaxAppendThink(f *testing.F)   { conformance.Fuzz(f, "minimax_append_think", casesDir) }
func FuzzMiniMaxM2(f *testing.F)            { conformance.Fuzz(f, "minimax_m2", casesDir) }
func FuzzMiniMaxM2AppendThink(f *testing.F) { conformance.Fuzz(f, "minimax_m2_append_think", casesDir) }
func FuzzMiniMaxM3(f *testing.F)            { conformance.Fuzz(f, "minimax_m3", casesDir) }
func FuzzNemotronDeci(f *testing.F)         { conformance.Fuzz(f, "nemotron_deci", casesDir) }
func FuzzNemotronV3(f *testing.F)           { conformance.Fuzz(f, "nemotron_v3", casesDir) }
func FuzzOlmo3(f *testing.F)                { conformance.Fuzz(f, "olmo3", casesDir) }
func FuzzPlamo3(f *testing.F)               { conformance.Fuzz(f, "plamo3", casesDir) }
func FuzzPoolsideV1(f *testing.F)           { conformance.Fuzz(f, "poolside_v1", casesDir) }
func FuzzQwen3(f *testing.F)                { conformance.Fuzz(f, "qwen3", casesDir) }
func FuzzQwen3Thinking(f *testing.F)        { conformance.Fuzz(f, "qwen3_thinking", casesDir) }
func FuzzSeedOSS(f *testing.F)              { conformance.Fuzz(f, "seed_oss", casesDir) }
func FuzzStep3(f *testing.F)                { conformance.Fuzz(f, "step3", casesDir) }
func FuzzStep3p5(f *testing.F)              { conformance.Fuzz(f, "step3p5", casesDir) }

// TestFuzzTargets fails for a registered name without a fuzz target in a
// test file of this package, so that a new family cannot be added without one.
func TestFuzzTargets(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	var fuzzed []string
	for _, m := range regexp.MustCompile(`conformance\.Fuzz\(f, "([a-z0-9_]+)"`).FindAllStringSubmatch(string(src), -1) {
		fuzzed = append(fuzzed, m[1])
	}
	for _, name := range reasoning.Names() {
		if !slices.Contains(fuzzed, name) {
			t.Errorf("registered parser %q has no fuzz target calling conformance.Fuzz", name)
		}
	}
}
