package config

// TuneMinCases is tune.min_cases: the fewest labelled cases `tune` works
// with (spec §14.7); below it a measured lift is mostly noise.
func (c *Config) TuneMinCases() int { return c.count(30, "tune", "min_cases") }

// TuneModel is tune.model, the proposer seat's model: the judges' model
// when unset, since the proposer reasons about what the judges missed.
func (c *Config) TuneModel() string { return c.model(c.JudgeModel("standard"), "tune", "model") }
