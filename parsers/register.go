package parsers

import "github.com/reasoning-go/reasoning"

func init() {
	reasoning.Register("basic", newBasic)
	reasoning.Register("deepseek_r1", newDeepSeekR1, "nemotron_nano", "deepseek_v3_1", "deepseek_v3_2")
	reasoning.Register("identity", newIdentityParser)
	reasoning.Register("qwen3", newQwen3)
}
