package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
)

// TestDeepSeekV32Names checks LMDeploy's spellings of deepseek_v32: the
// dotted one is registered as written, since names normalise '-' to '_'
// but keep the '.', and Dynamo's deepseek_v3_2 (a forced deepseek_r1) is
// another name. DeepSeek-V3.2 models stay with vLLM's deepseek_v3.
func TestDeepSeekV32Names(t *testing.T) {
	for name, want := range map[string]string{
		"deepseek_v32":  "deepseek_v32",
		"deepseek-v32":  "deepseek_v32",
		"deepseek-v3.2": "deepseek_v32",
		"DeepSeek-V3.2": "deepseek_v32",
		"deepseek_v3.2": "deepseek_v32",
		"deepseek-v3-2": "deepseek_r1",
	} {
		if got, ok := reasoning.Canonical(name); !ok || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, model := range []string{"deepseek-ai/DeepSeek-V3.2", "deepseek-ai/DeepSeek-V3.2-Exp"} {
		if got, _ := reasoning.ForModel(model); got != "deepseek_v3" {
			t.Errorf("ForModel(%q) = %q, want deepseek_v3", model, got)
		}
	}
}
