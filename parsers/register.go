package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
)

func init() {
	register("basic", newBasic, basicFamily.entry())
	register("deepseek_r1", newDeepSeekR1, deepseekR1Family.entry(), "nemotron_nano", "deepseek_v3_1", "deepseek_v3_2")
	register("identity", newIdentityParser, catalog.Entry{})
	register("qwen3", newQwen3, qwen3Family.entry())
}

// register adds a name to reasoning.Default and what it is made of to the
// test catalog.
func register(name string, f reasoning.Factory, e catalog.Entry, aliases ...string) {
	reasoning.Register(name, f, aliases...)
	catalog.Add(name, e)
}
