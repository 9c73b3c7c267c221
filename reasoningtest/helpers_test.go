package reasoningtest_test

import "fmt"

func fmtSscanQ(s string, out *string) (int, error) { return fmt.Sscanf(s, "%q", out) }
